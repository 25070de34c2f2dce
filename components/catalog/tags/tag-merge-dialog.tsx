"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { TTagResponse } from "@/server/domain/catalog/tags/tag.schemas";
import { useTRPC } from "../../shell/trpc-provider";
import { Dialog } from "../../ui/dialog";
import { Field } from "../../ui/field";
import { ColorSwatch } from "../../ui/color-input";
import { ProblemAlert } from "../../ui/problem-alert";
import { problemFrom } from "../../ui/problem";
import { sieveFilter, sieveValue } from "../../ui/sieve";
import { useDebounced } from "../../ui/use-debounced";

/** docs/api.md tag merge: pick a kept tag of the same scope, then confirm; the source is deleted. */
export function TagMergeDialog({ source, onClose }: { source: TTagResponse; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  // The chosen tag itself, not its id: a search still loading (or not listing it) must not drop it.
  const [target, setTarget] = useState<TTagResponse | null>(null);
  const term = useDebounced(search.trim());
  const candidates = useQuery({
    ...trpc.tags.list.queryOptions({
      filter: sieveFilter(`scope==${source.scope}`, term && `name@=*${sieveValue(term)}`),
      sortOrder: "name",
      pageNumber: 1,
      pageSize: 100,
      includeDeleted: false,
    }),
    placeholderData: keepPreviousData,
  });
  const listed = (candidates.data?.items ?? []).filter((t) => t.id !== source.id);
  const targets = target && !listed.some((t) => t.id === target.id) ? [target, ...listed] : listed;
  const merge = useMutation(
    trpc.tags.merge.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.tags.pathKey() });
        onClose();
      },
    }),
  );

  return (
    <Dialog
      open
      title={`Merge tag “${source.name}”`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn-danger"
            disabled={!target || merge.isPending}
            onClick={() => target && merge.mutate({ id: source.id, intoTagId: target.id })}
          >
            {merge.isPending ? "Merging…" : target ? `Merge into “${target.name}”` : "Merge"}
          </button>
        </>
      }
    >
      <ProblemAlert problem={problemFrom(merge.error) ?? problemFrom(candidates.error)} />
      <p className="muted">
        Only tags of the same scope ({source.scope}) can be kept. Every record carrying “{source.name}” will
        carry the kept tag instead.
      </p>
      <div className="form">
        <Field label="Find a tag" htmlFor="merge-search">
          <input
            id="merge-search"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Name contains…"
          />
        </Field>
        <Field label="Keep this tag" htmlFor="merge-target">
          <select
            id="merge-target"
            value={target?.id ?? ""}
            onChange={(e) => setTarget(targets.find((t) => t.id === e.target.value) ?? null)}
            size={Math.min(8, Math.max(3, targets.length + 1))}
          >
            <option value="" disabled>
              {candidates.isLoading
                ? "Loading…"
                : targets.length
                  ? "Choose a tag"
                  : "No other tag in this scope"}
            </option>
            {targets.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({t.usageCount} uses)
              </option>
            ))}
          </select>
        </Field>
      </div>
      {target ? (
        <div className="confirm-summary" data-testid="merge-summary">
          <p>
            <ColorSwatch color={source.color} /> <strong>{source.name}</strong> ({source.usageCount}{" "}
            {source.usageCount === 1 ? "record" : "records"}) will be merged into{" "}
            <ColorSwatch color={target.color} /> <strong>{target.name}</strong> ({target.usageCount}) and then
            deleted.
          </p>
          <p className="muted small">This cannot be undone.</p>
        </div>
      ) : null}
    </Dialog>
  );
}
