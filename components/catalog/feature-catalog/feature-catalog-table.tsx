"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { lifecycleMoves, lifecycleStatuses, type TFeatureCatalogResponse, type TLifecycleStatus } from "@/server/domain/catalog/feature-catalog.schemas";
import { featureTypes } from "@/server/domain/catalog/feature-value";
import { useTRPC } from "../../trpc-provider";
import { DataTable, Pager, nextSort, sortOrderOf, type Column, type SortState } from "../../data-table";
import { ConfirmDialog } from "../../confirm-dialog";
import { ProblemAlert } from "../../problem-alert";
import { problemFrom } from "../../problem";
import { sieveFilter, sieveValue } from "../../sieve";
import { useDebounced } from "../../use-debounced";
import { ReferencedBy, StatusBadge } from "../referenced-by";
import { FeatureFormDialog } from "./feature-form-dialog";
import { FeatureCodeDialog } from "./feature-code-dialog";

const PAGE_SIZE = 20;

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
  const [search, setSearch] = useState("");
  const [featureType, setFeatureType] = useState("");
  const [lifecycle, setLifecycle] = useState("");
  const [includeDeleted, setIncludeDeleted] = useState(false);
  const [sort, setSort] = useState<SortState>({ field: "featureCode", descending: false });
  const [pageNumber, setPageNumber] = useState(1);
  const [action, setAction] = useState<Action>(null);
  const term = useDebounced(search.trim());

  const list = useQuery({
    ...trpc.featureCatalog.list.queryOptions({
      filter: sieveFilter(term && `featureCode|name@=*${sieveValue(term)}`, featureType && `featureType==${featureType}`, lifecycle && `lifecycleStatus==${lifecycle}`),
      sortOrder: sortOrderOf(sort),
      pageNumber,
      pageSize: PAGE_SIZE,
      includeDeleted,
    }),
    placeholderData: keepPreviousData,
  });
  const deleting = action?.kind === "delete" ? action.entry : null;
  const references = useQuery({ ...trpc.featureCatalog.get.queryOptions({ id: deleting?.id ?? "" }), enabled: !!deleting });
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.featureCatalog.pathKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.products.pathKey() });
    setAction(null);
  };
  const move = useMutation(trpc.featureCatalog.setLifecycle.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.featureCatalog.delete.mutationOptions({ onSuccess: refresh }));

  const resetPage = <T,>(set: (v: T) => void) => (value: T) => {
    set(value);
    setPageNumber(1);
  };

  const columns: Column<TFeatureCatalogResponse>[] = [
    {
      key: "code", header: "Code", sortField: "featureCode",
      render: (e) => (
        <span className="tag-name">
          <code>{e.featureCode}</code>
          {e.isDeleted ? <span className="badge badge-muted">deleted</span> : null}
        </span>
      ),
    },
    { key: "name", header: "Name", sortField: "name", render: (e) => e.name },
    {
      key: "type", header: "Type", sortField: "featureType",
      render: (e) => (
        <>
          {e.featureType}
          {e.featureType === "Enumeration" ? <span className="sub-line">{e.enumOptions.map((o) => o.value).join(", ")}</span> : null}
          {e.metricName ? <span className="sub-line">metric <code>{e.metricName}</code></span> : null}
        </>
      ),
    },
    { key: "lifecycle", header: "Lifecycle", sortField: "lifecycleStatus", render: (e) => <StatusBadge status={e.lifecycleStatus} /> },
    { key: "units", header: "Units", sortField: "units", render: (e) => e.units ?? <span className="muted">—</span> },
    { key: "score", header: "Value score", sortField: "valueScore", align: "right", render: (e) => (e.valueScore === null ? <span className="muted" title="Not valued">—</span> : e.valueScore) },
    { key: "tags", header: "Tags", render: (e) => <span className="chips">{e.tags.map((t) => <span key={t} className="badge">{t}</span>)}</span> },
    {
      key: "actions", header: "",
      render: (e) =>
        e.isDeleted ? null : (
          <span className="row-actions">
            <button type="button" className="btn btn-small" onClick={() => setAction({ kind: "edit", entry: e })}>Edit</button>
            <select
              className="lifecycle-select"
              aria-label={`Lifecycle of ${e.featureCode}`}
              value=""
              onChange={(ev) => { move.reset(); setAction({ kind: "lifecycle", entry: e, to: ev.target.value as TLifecycleStatus }); }}
            >
              <option value="">Lifecycle…</option>
              {lifecycleMoves[e.lifecycleStatus as TLifecycleStatus]?.map((to) => <option key={to} value={to}>{lifecycleVerbs[to]}</option>)}
            </select>
            <button type="button" className="btn btn-small" aria-label={`Change the code of ${e.featureCode}`} onClick={() => setAction({ kind: "code", entry: e })}>Code…</button>
            <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => { remove.reset(); setAction({ kind: "delete", entry: e }); }}>Delete</button>
          </span>
        ),
    },
  ];

  return (
    <>
      <div className="toolbar">
        <input type="search" aria-label="Filter by code or name" placeholder="Filter by code or name…" value={search} onChange={(e) => resetPage(setSearch)(e.target.value)} />
        <select aria-label="Type" value={featureType} onChange={(e) => resetPage(setFeatureType)(e.target.value)}>
          <option value="">All types</option>
          {featureTypes.map((t) => <option key={t} value={t}>{t}</option>)}
        </select>
        <select aria-label="Lifecycle" value={lifecycle} onChange={(e) => resetPage(setLifecycle)(e.target.value)}>
          <option value="">Any lifecycle</option>
          {lifecycleStatuses.map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
        <label className="checkbox">
          <input type="checkbox" checked={includeDeleted} onChange={(e) => resetPage(setIncludeDeleted)(e.target.checked)} />
          Show deleted
        </label>
        <span className="toolbar-spacer" />
        <button type="button" className="btn btn-primary" onClick={() => setAction({ kind: "create" })}>New feature</button>
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <DataTable
        caption="Feature catalog"
        columns={columns}
        rows={list.data?.items ?? []}
        rowKey={(e) => e.id}
        rowClassName={(e) => (e.isDeleted ? "row-deleted" : undefined)}
        sort={sort}
        onSort={(field) => { setSort(nextSort(sort, field)); setPageNumber(1); }}
        loading={list.isLoading}
        empty={term || featureType || lifecycle ? "No feature matches this filter." : "No features yet. Catalog entries are what products, plans and add-ons grant."}
      />
      <Pager page={list.data} onPage={setPageNumber} />

      {action?.kind === "create" ? <FeatureFormDialog onClose={() => setAction(null)} /> : null}
      {action?.kind === "edit" ? <FeatureFormDialog entry={action.entry} onClose={() => setAction(null)} /> : null}
      {action?.kind === "code" ? <FeatureCodeDialog entry={action.entry} onClose={() => setAction(null)} /> : null}
      <ConfirmDialog
        open={action?.kind === "lifecycle"}
        title={action?.kind === "lifecycle" ? `${lifecycleVerbs[action.to]} ${action.entry.featureCode}?` : "Lifecycle"}
        confirmLabel={action?.kind === "lifecycle" ? lifecycleVerbs[action.to] : "Confirm"}
        danger={action?.kind === "lifecycle" && action.to === "Archived"}
        busy={move.isPending}
        problem={problemFrom(move.error)}
        onCancel={() => setAction(null)}
        onConfirm={() => action?.kind === "lifecycle" && move.mutate({ id: action.entry.id, lifecycleStatus: action.to, revisionNumber: action.entry.revisionNumber })}
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
        <p className="muted small">An entry anything refers to cannot be deleted: archive it instead. A deleted entry&apos;s code becomes free.</p>
      </ConfirmDialog>
    </>
  );
}
