"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { TRatingCampaignResponse } from "@/server/domain/catalog/rating-campaign.schemas";
import { useTRPC } from "../trpc-provider";
import { DataTable, Pager, nextSort, sortOrderOf, type Column, type SortState } from "../data-table";
import { ConfirmDialog } from "../confirm-dialog";
import { ProblemAlert } from "../problem-alert";
import { problemFrom } from "../problem";
import { formatDateTime } from "../format";
import { sieveFilter, sieveValue } from "../sieve";
import { useDebounced } from "../use-debounced";
import { RatingCampaignDialog } from "./rating-campaign-dialog";

const PAGE_SIZE = 20;

type Action = { kind: "create" } | { kind: "edit" | "delete"; campaign: TRatingCampaignResponse } | null;

const windowLabel = (c: TRatingCampaignResponse) =>
  !c.startsAt && !c.endsAt ? "always" : `${c.startsAt ? formatDateTime(c.startsAt) : "…"} → ${c.endsAt ? formatDateTime(c.endsAt) : "…"}`;

export function RatingCampaignsTable() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const [runningOnly, setRunningOnly] = useState(false);
  const [sort, setSort] = useState<SortState>({ field: "creationTimeStamp", descending: true });
  const [pageNumber, setPageNumber] = useState(1);
  const [action, setAction] = useState<Action>(null);
  const term = useDebounced(search.trim());
  const list = useQuery({
    ...trpc.ratingCampaigns.list.queryOptions({
      filter: sieveFilter(term && `name@=*${sieveValue(term)}`, runningOnly && "isRunning==true"),
      sortOrder: sortOrderOf(sort),
      pageNumber,
      pageSize: PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation(
    trpc.ratingCampaigns.delete.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.ratingCampaigns.pathKey() });
        setAction(null);
      },
    }),
  );
  const columns: Column<TRatingCampaignResponse>[] = [
    {
      key: "name", header: "Campaign", sortField: "name",
      render: (c) => (
        <span className="tag-name">
          {c.name}
          {c.isRunning ? <span className="badge badge-ok" data-testid="running-badge">running</span> : <span className="badge badge-muted">{c.isEnabled ? "outside window" : "disabled"}</span>}
        </span>
      ),
    },
    { key: "window", header: "Window", sortField: "startsAt", render: windowLabel },
    {
      key: "targets", header: "Targets (asking order)",
      render: (c) => (c.targets.length ? c.targets.map((t) => `${t.featureName ?? t.featureCatalogId}${t.priority === null ? "" : ` #${t.priority}`}`).join(", ") : <span className="muted">none</span>),
    },
    { key: "offers", header: "Offers", render: (c) => (c.offers.length ? `${c.offers.length} offer(s)` : "everyone") },
    {
      key: "actions", header: "",
      render: (c) => (
        <span className="row-actions">
          <button type="button" className="btn btn-small" onClick={() => setAction({ kind: "edit", campaign: c })}>Edit</button>
          <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => { remove.reset(); setAction({ kind: "delete", campaign: c }); }}>Delete</button>
        </span>
      ),
    },
  ];
  return (
    <>
      <div className="toolbar">
        <input type="search" aria-label="Filter by name" placeholder="Filter by name…" value={search} onChange={(e) => { setSearch(e.target.value); setPageNumber(1); }} />
        <label className="checkbox"><input type="checkbox" checked={runningOnly} onChange={(e) => { setRunningOnly(e.target.checked); setPageNumber(1); }} /> Running now</label>
        <span className="toolbar-spacer" />
        <button type="button" className="btn btn-primary" onClick={() => setAction({ kind: "create" })}>New campaign</button>
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <DataTable
        caption="Rating campaigns"
        columns={columns}
        rows={list.data?.items ?? []}
        rowKey={(c) => c.id}
        sort={sort}
        onSort={(field) => { setSort(nextSort(sort, field)); setPageNumber(1); }}
        loading={list.isLoading}
        empty={term || runningOnly ? "No campaign matches this filter." : "No rating campaigns yet. A campaign asks entitled users to rate features while it runs."}
      />
      <Pager page={list.data} onPage={setPageNumber} />
      {action?.kind === "create" ? <RatingCampaignDialog onClose={() => setAction(null)} /> : null}
      {action?.kind === "edit" ? <RatingCampaignDialog campaign={action.campaign} onClose={() => setAction(null)} /> : null}
      <ConfirmDialog
        open={action?.kind === "delete"}
        title={action?.kind === "delete" ? `Delete “${action.campaign.name}”?` : "Delete campaign"}
        confirmLabel="Delete campaign"
        danger
        busy={remove.isPending}
        problem={problemFrom(remove.error)}
        onCancel={() => setAction(null)}
        onConfirm={() => action?.kind === "delete" && remove.mutate({ id: action.campaign.id })}
      >
        {action?.kind === "delete" ? (
          <p>{action.campaign.isRunning ? "The campaign is running: users stop being asked at once." : "The campaign is not running."} Its {action.campaign.targets.length} target(s) go with it.</p>
        ) : null}
      </ConfirmDialog>
    </>
  );
}
