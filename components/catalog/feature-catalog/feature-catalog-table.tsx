"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  lifecycleMoves,
  lifecycleStatuses,
  type TFeatureCatalogResponse,
  type TLifecycleStatus,
} from "@/server/domain/catalog/feature-catalog/feature-catalog.schemas";
import { featureTypes } from "@/server/domain/catalog/feature-catalog/feature-value";
import { useTRPC } from "../../shell/trpc-provider";
import type { Column } from "../../ui/data-table";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import { ProblemAlert } from "../../ui/problem-alert";
import { problemFrom } from "../../ui/problem";
import { sieveValue } from "../../ui/sieve";
import { useListState } from "../../ui/use-list-state";
import { CheckboxFilter, ListTable, SearchFilter, SelectFilter } from "../../ui/list-controls";
import { ReferencedBy, StatusBadge } from "../referenced-by";
import { FeatureFormDialog } from "./feature-form-dialog";
import { FeatureCodeDialog } from "./feature-code-dialog";
import { ExportCsvLink } from "../../operations/export-link";

const lifecycleVerbs: Record<TLifecycleStatus, string> = {
  Draft: "Back to draft",
  Preview: "Preview",
  Published: "Publish",
  Disabled: "Disable",
  Archived: "Archive",
};

const lifecycleMeaning: Record<TLifecycleStatus, string> = {
  Draft: "It goes back to being authored.",
  Preview: "It can be tried before release.",
  Published: "It becomes generally available.",
  Disabled: "It stays on products but cannot be newly attached; publish it again to undo.",
  Archived: "It is retired for good: nothing leaves Archived.",
};

type Action =
  | { kind: "create" }
  | { kind: "edit" | "code" | "delete"; entry: TFeatureCatalogResponse }
  | { kind: "lifecycle"; entry: TFeatureCatalogResponse; to: TLifecycleStatus }
  | null;

/** The feature catalog: filter, sort, page; create, edit, lifecycle moves, code changes, delete. */
export function FeatureCatalogTable() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const view = useListState({
    filters: { q: "", type: "", lifecycle: "", deleted: false },
    sort: { field: "featureCode", descending: false },
    terms: (f) => [
      f.q && `featureCode|name@=*${sieveValue(f.q)}`,
      f.type && `featureType==${f.type}`,
      f.lifecycle && `lifecycleStatus==${f.lifecycle}`,
    ],
  });
  const [action, setAction] = useState<Action>(null);

  const list = useQuery({
    ...trpc.featureCatalog.list.queryOptions({ ...view.query, includeDeleted: view.settled.deleted }),
    placeholderData: keepPreviousData,
  });
  const deleting = action?.kind === "delete" ? action.entry : null;
  const references = useQuery({
    ...trpc.featureCatalog.get.queryOptions({ id: deleting?.id ?? "" }),
    enabled: !!deleting,
  });
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.featureCatalog.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.products.pathKey() });
    setAction(null);
  };
  const move = useMutation(trpc.featureCatalog.setLifecycle.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.featureCatalog.delete.mutationOptions({ onSuccess: refresh }));

  const columns: Column<TFeatureCatalogResponse>[] = [
    {
      key: "code",
      header: "Code",
      sortField: "featureCode",
      render: (e) => (
        <span className="tag-name">
          <code>{e.featureCode}</code>
          {e.isDeleted ? <span className="badge badge-muted">deleted</span> : null}
        </span>
      ),
    },
    { key: "name", header: "Name", sortField: "name", render: (e) => e.name },
    {
      key: "type",
      header: "Type",
      sortField: "featureType",
      render: (e) => (
        <>
          {e.featureType}
          {e.featureType === "Enumeration" ? (
            <span className="sub-line">{e.enumOptions.map((o) => o.value).join(", ")}</span>
          ) : null}
          {e.metricName ? (
            <span className="sub-line">
              metric <code>{e.metricName}</code>
            </span>
          ) : null}
        </>
      ),
    },
    {
      key: "lifecycle",
      header: "Lifecycle",
      sortField: "lifecycleStatus",
      render: (e) => <StatusBadge status={e.lifecycleStatus} />,
    },
    {
      key: "units",
      header: "Units",
      sortField: "units",
      render: (e) => e.units ?? <span className="muted">—</span>,
    },
    {
      key: "score",
      header: "Value score",
      sortField: "valueScore",
      align: "right",
      render: (e) =>
        e.valueScore === null ? (
          <span className="muted" title="Not valued">
            —
          </span>
        ) : (
          e.valueScore
        ),
    },
    {
      key: "tags",
      header: "Tags",
      render: (e) => (
        <span className="chips">
          {e.tags.map((t) => (
            <span key={t} className="badge">
              {t}
            </span>
          ))}
        </span>
      ),
    },
    {
      key: "actions",
      header: "",
      render: (e) =>
        e.isDeleted ? null : (
          <span className="row-actions">
            <button
              type="button"
              className="btn btn-small"
              onClick={() => setAction({ kind: "edit", entry: e })}
            >
              Edit
            </button>
            <select
              className="lifecycle-select"
              aria-label={`Lifecycle of ${e.featureCode}`}
              value=""
              onChange={(ev) => {
                move.reset();
                setAction({ kind: "lifecycle", entry: e, to: ev.target.value as TLifecycleStatus });
              }}
            >
              <option value="">Lifecycle…</option>
              {lifecycleMoves[e.lifecycleStatus as TLifecycleStatus]?.map((to) => (
                <option key={to} value={to}>
                  {lifecycleVerbs[to]}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="btn btn-small"
              aria-label={`Change the code of ${e.featureCode}`}
              onClick={() => setAction({ kind: "code", entry: e })}
            >
              Code…
            </button>
            <button
              type="button"
              className="btn btn-small btn-danger-ghost"
              onClick={() => {
                remove.reset();
                setAction({ kind: "delete", entry: e });
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
        <SearchFilter
          view={view}
          name="q"
          label="Filter by code or name"
          placeholder="Filter by code or name…"
        />
        <SelectFilter view={view} name="type" label="Type" any="All types" options={featureTypes} />
        <SelectFilter
          view={view}
          name="lifecycle"
          label="Lifecycle"
          any="Any lifecycle"
          options={lifecycleStatuses}
        />
        <CheckboxFilter view={view} name="deleted">
          Show deleted
        </CheckboxFilter>
        <span className="toolbar-spacer" />
        <ExportCsvLink
          list="feature-catalog"
          query={view.query}
          pending={view.pending}
          extra={{ includeDeleted: view.settled.deleted }}
        />
        <button type="button" className="btn btn-primary" onClick={() => setAction({ kind: "create" })}>
          New feature
        </button>
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <ListTable
        view={view}
        list={list}
        caption="Feature catalog"
        columns={columns}
        rowKey={(e) => e.id}
        rowClassName={(e) => (e.isDeleted ? "row-deleted" : undefined)}
        empty={
          view.settled.q || view.settled.type || view.settled.lifecycle
            ? "No feature matches this filter."
            : "No features yet. Catalog entries are what products, plans and add-ons grant."
        }
      />

      {action?.kind === "create" ? <FeatureFormDialog onClose={() => setAction(null)} /> : null}
      {action?.kind === "edit" ? (
        <FeatureFormDialog entry={action.entry} onClose={() => setAction(null)} />
      ) : null}
      {action?.kind === "code" ? (
        <FeatureCodeDialog entry={action.entry} onClose={() => setAction(null)} />
      ) : null}
      <ConfirmDialog
        open={action?.kind === "lifecycle"}
        title={
          action?.kind === "lifecycle"
            ? `${lifecycleVerbs[action.to]} ${action.entry.featureCode}?`
            : "Lifecycle"
        }
        confirmLabel={action?.kind === "lifecycle" ? lifecycleVerbs[action.to] : "Confirm"}
        danger={action?.kind === "lifecycle" && action.to === "Archived"}
        busy={move.isPending}
        problem={problemFrom(move.error)}
        onCancel={() => setAction(null)}
        onConfirm={() =>
          action?.kind === "lifecycle" &&
          move.mutate({
            id: action.entry.id,
            lifecycleStatus: action.to,
            revisionNumber: action.entry.revisionNumber,
          })
        }
      >
        {action?.kind === "lifecycle" ? (
          <p>
            {action.entry.lifecycleStatus} → <strong>{action.to}</strong>. {lifecycleMeaning[action.to]}
          </p>
        ) : null}
      </ConfirmDialog>
      <ConfirmDialog
        open={!!deleting}
        title={deleting ? `Delete ${deleting.featureCode}?` : "Delete feature"}
        confirmLabel="Delete feature"
        danger
        busy={remove.isPending}
        problem={problemFrom(remove.error ?? references.error)}
        onCancel={() => setAction(null)}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
      >
        <ReferencedBy counts={references.data?.referencedBy} />
        <p className="muted small">
          An entry anything refers to cannot be deleted: archive it instead. A deleted entry&apos;s code
          becomes free.
        </p>
      </ConfirmDialog>
    </>
  );
}
