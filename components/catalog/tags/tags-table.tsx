"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { tagScopes, type TTagResponse } from "@/server/domain/catalog/tags/tag.schemas";
import { useTRPC } from "../../shell/trpc-provider";
import type { Column } from "../../ui/data-table";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import { ColorSwatch } from "../../ui/color-input";
import { ProblemAlert } from "../../ui/problem-alert";
import { problemFrom } from "../../ui/problem";
import { formatDateTime } from "../../ui/format";
import { sieveValue } from "../../ui/sieve";
import { useListState } from "../../ui/use-list-state";
import { CheckboxFilter, ListTable, SearchFilter, SelectFilter } from "../../ui/list-controls";
import { TagFormDialog } from "./tag-form-dialog";
import { TagMergeDialog } from "./tag-merge-dialog";
import { ExportCsvLink } from "../../operations/export-link";

type Action = { kind: "create" } | { kind: "edit" | "merge" | "delete"; tag: TTagResponse } | null;

/** The tag registry: filter, sort, page, and every tag action of docs/api.md. */
export function TagsTable() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const view = useListState({
    filters: { q: "", scope: "", deleted: false },
    sort: { field: "name", descending: false },
    terms: (f) => [f.q && `name@=*${sieveValue(f.q)}`, f.scope && `scope==${f.scope}`],
  });
  const [action, setAction] = useState<Action>(null);

  const list = useQuery({
    ...trpc.tags.list.queryOptions({ ...view.query, includeDeleted: view.settled.deleted }),
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

  const columns: Column<TTagResponse>[] = [
    {
      key: "name",
      header: "Name",
      sortField: "name",
      render: (t) => (
        <span className="tag-name">
          <ColorSwatch color={t.color} />
          {t.name}
          {t.isDeleted ? <span className="badge badge-muted">deleted</span> : null}
        </span>
      ),
    },
    {
      key: "scope",
      header: "Scope",
      sortField: "scope",
      render: (t) => <span className="badge">{t.scope}</span>,
    },
    {
      key: "usage",
      header: "Usage",
      sortField: "usageCount",
      align: "right",
      render: (t) => <span data-testid="usage-count">{t.usageCount}</span>,
    },
    { key: "updated", header: "Updated", sortField: "updatedAt", render: (t) => formatDateTime(t.updatedAt) },
    {
      key: "actions",
      header: "",
      render: (t) =>
        t.isDeleted ? null : (
          <span className="row-actions">
            <button
              type="button"
              className="btn btn-small"
              onClick={() => setAction({ kind: "edit", tag: t })}
            >
              Edit
            </button>
            <button
              type="button"
              className="btn btn-small"
              onClick={() => setAction({ kind: "merge", tag: t })}
            >
              Merge
            </button>
            <button
              type="button"
              className="btn btn-small btn-danger-ghost"
              onClick={() => {
                remove.reset();
                setAction({ kind: "delete", tag: t });
              }}
            >
              Delete
            </button>
          </span>
        ),
    },
  ];

  return (
    <>
      <div className="toolbar">
        <SearchFilter view={view} name="q" label="Filter by name" placeholder="Filter by name…" />
        <SelectFilter view={view} name="scope" label="Scope" any="All scopes" options={tagScopes} />
        <CheckboxFilter view={view} name="deleted">
          Show deleted
        </CheckboxFilter>
        <span className="toolbar-spacer" />
        <ExportCsvLink
          list="tags"
          query={view.query}
          pending={view.pending}
          extra={{ includeDeleted: view.settled.deleted }}
        />
        <button type="button" className="btn btn-primary" onClick={() => setAction({ kind: "create" })}>
          New tag
        </button>
      </div>

      <ProblemAlert problem={problemFrom(list.error)} />
      <ListTable
        view={view}
        list={list}
        caption="Tags"
        columns={columns}
        rowKey={(t) => t.id}
        rowClassName={(t) => (t.isDeleted ? "row-deleted" : undefined)}
        empty={
          view.settled.q || view.settled.scope
            ? "No tag matches this filter."
            : "No tags yet. Tags organise products, features, offers and monitored assets."
        }
      />

      {action?.kind === "create" ? (
        <TagFormDialog defaultScope={view.settled.scope || undefined} onClose={() => setAction(null)} />
      ) : null}
      {action?.kind === "edit" ? <TagFormDialog tag={action.tag} onClose={() => setAction(null)} /> : null}
      {action?.kind === "merge" ? (
        <TagMergeDialog source={action.tag} onClose={() => setAction(null)} />
      ) : null}
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
