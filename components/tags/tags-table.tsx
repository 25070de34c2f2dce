"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { tagScopes, type TTagResponse } from "@/server/domain/catalog/tag.schemas";
import { useTRPC } from "../trpc-provider";
import { DataTable, Pager, nextSort, sortOrderOf, type Column, type SortState } from "../data-table";
import { ConfirmDialog } from "../confirm-dialog";
import { ColorSwatch } from "../color-input";
import { ProblemAlert } from "../problem-alert";
import { problemFrom } from "../problem";
import { formatDateTime } from "../format";
import { sieveFilter, sieveValue } from "../sieve";
import { useDebounced } from "../use-debounced";
import { TagFormDialog } from "./tag-form-dialog";
import { TagMergeDialog } from "./tag-merge-dialog";

const PAGE_SIZE = 20;

type Action = { kind: "create" } | { kind: "edit" | "merge" | "delete"; tag: TTagResponse } | null;

/** The tag registry: filter, sort, page, and every tag action of SPEC.md. */
export function TagsTable() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const [scope, setScope] = useState("");
  const [includeDeleted, setIncludeDeleted] = useState(false);
  const [sort, setSort] = useState<SortState>({ field: "name", descending: false });
  const [pageNumber, setPageNumber] = useState(1);
  const [action, setAction] = useState<Action>(null);
  const term = useDebounced(search.trim());

  const list = useQuery({
    ...trpc.tags.list.queryOptions({
      filter: sieveFilter(term && `name@=*${sieveValue(term)}`, scope && `scope==${scope}`),
      sortOrder: sortOrderOf(sort),
      pageNumber,
      pageSize: PAGE_SIZE,
      includeDeleted,
    }),
    placeholderData: keepPreviousData,
  });

  const remove = useMutation(
    trpc.tags.delete.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.tags.pathKey() });
        setAction(null);
      },
    }),
  );

  const resetPage = <T,>(set: (v: T) => void) => (value: T) => {
    set(value);
    setPageNumber(1);
  };

  const columns: Column<TTagResponse>[] = [
    {
      key: "name", header: "Name", sortField: "name",
      render: (t) => (
        <span className="tag-name">
          <ColorSwatch color={t.color} />
          {t.name}
          {t.isDeleted ? <span className="badge badge-muted">deleted</span> : null}
        </span>
      ),
    },
    { key: "scope", header: "Scope", sortField: "scope", render: (t) => <span className="badge">{t.scope}</span> },
    { key: "usage", header: "Usage", sortField: "usageCount", align: "right", render: (t) => <span data-testid="usage-count">{t.usageCount}</span> },
    { key: "updated", header: "Updated", sortField: "updatedAt", render: (t) => formatDateTime(t.updatedAt) },
    {
      key: "actions", header: "",
      render: (t) =>
        t.isDeleted ? null : (
          <span className="row-actions">
            <button type="button" className="btn btn-small" onClick={() => setAction({ kind: "edit", tag: t })}>Edit</button>
            <button type="button" className="btn btn-small" onClick={() => setAction({ kind: "merge", tag: t })}>Merge</button>
            <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => { remove.reset(); setAction({ kind: "delete", tag: t }); }}>Delete</button>
          </span>
        ),
    },
  ];

  return (
    <>
      <div className="toolbar">
        <input
          type="search"
          aria-label="Filter by name"
          placeholder="Filter by name…"
          value={search}
          onChange={(e) => resetPage(setSearch)(e.target.value)}
        />
        <select aria-label="Scope" value={scope} onChange={(e) => resetPage(setScope)(e.target.value)}>
          <option value="">All scopes</option>
          {tagScopes.map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
        <label className="checkbox">
          <input type="checkbox" checked={includeDeleted} onChange={(e) => resetPage(setIncludeDeleted)(e.target.checked)} />
          Show deleted
        </label>
        <span className="toolbar-spacer" />
        <button type="button" className="btn btn-primary" onClick={() => setAction({ kind: "create" })}>New tag</button>
      </div>

      <ProblemAlert problem={problemFrom(list.error)} />
      <DataTable
        caption="Tags"
        columns={columns}
        rows={list.data?.items ?? []}
        rowKey={(t) => t.id}
        rowClassName={(t) => (t.isDeleted ? "row-deleted" : undefined)}
        sort={sort}
        onSort={(field) => { setSort(nextSort(sort, field)); setPageNumber(1); }}
        loading={list.isLoading}
        empty={term || scope ? "No tag matches this filter." : "No tags yet. Tags organise products, features, offers and monitored assets."}
      />
      <Pager page={list.data} onPage={setPageNumber} />

      {action?.kind === "create" ? <TagFormDialog defaultScope={scope || undefined} onClose={() => setAction(null)} /> : null}
      {action?.kind === "edit" ? <TagFormDialog tag={action.tag} onClose={() => setAction(null)} /> : null}
      {action?.kind === "merge" ? <TagMergeDialog source={action.tag} onClose={() => setAction(null)} /> : null}
      <ConfirmDialog
        open={action?.kind === "delete"}
        title={action?.kind === "delete" ? `Delete tag “${action.tag.name}”?` : "Delete tag"}
        confirmLabel="Delete tag"
        danger
        busy={remove.isPending}
        problem={problemFrom(remove.error)}
        onCancel={() => setAction(null)}
        onConfirm={() => action?.kind === "delete" && remove.mutate({ id: action.tag.id })}
      >
        {action?.kind === "delete" ? (
          <p data-testid="delete-usage">
            {action.tag.usageCount === 0
              ? "No record carries this tag."
              : `${action.tag.usageCount} ${action.tag.usageCount === 1 ? "record carries" : "records carry"} this tag; it will be removed from ${action.tag.usageCount === 1 ? "it" : "all of them"}.`}{" "}
            Its name becomes free for a new tag.
          </p>
        ) : null}
      </ConfirmDialog>
    </>
  );
}
