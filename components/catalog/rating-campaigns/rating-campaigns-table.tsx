"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { TRatingCampaignResponse } from "@/server/domain/catalog/rating-campaigns/rating-campaign.schemas";
import { useTRPC } from "../../shell/trpc-provider";
import type { Column } from "../../ui/data-table";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import { ProblemAlert } from "../../ui/problem-alert";
import { problemFrom } from "../../ui/problem";
import { formatCountOf, formatDateTime } from "../../ui/format";
import { sieveValue } from "../../ui/sieve";
import { useListState } from "../../ui/use-list-state";
import { CheckboxFilter, ListTable, SearchFilter } from "../../ui/list-controls";
import { RatingCampaignDialog } from "./rating-campaign-dialog";
import { ExportCsvLink } from "../../operations/export-link";

type Action = { kind: "create" } | { kind: "edit" | "delete"; campaign: TRatingCampaignResponse } | null;

const windowLabel = (c: TRatingCampaignResponse) =>
  !c.startsAt && !c.endsAt
    ? "always"
    : `${c.startsAt ? formatDateTime(c.startsAt) : "…"} → ${c.endsAt ? formatDateTime(c.endsAt) : "…"}`;

export function RatingCampaignsTable() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const view = useListState({
    filters: { q: "", running: false },
    sort: { field: "creationTimeStamp", descending: true },
    terms: (f) => [f.q && `name@=*${sieveValue(f.q)}`, f.running && "isRunning==true"],
  });
  const [action, setAction] = useState<Action>(null);
  const list = useQuery({
    ...trpc.ratingCampaigns.list.queryOptions(view.query),
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
      key: "name",
      header: "Campaign",
      sortField: "name",
      render: (c) => (
        <span className="tag-name">
          {c.name}
          {c.isRunning ? (
            <span className="badge badge-ok" data-testid="running-badge">
              running
            </span>
          ) : (
            <span className="badge badge-muted">{c.isEnabled ? "outside window" : "disabled"}</span>
          )}
        </span>
      ),
    },
    { key: "window", header: "Window", sortField: "startsAt", render: windowLabel },
    {
      key: "targets",
      header: "Targets (asking order)",
      render: (c) =>
        c.targets.length ? (
          c.targets
            .map(
              (t) => `${t.featureName ?? t.featureCatalogId}${t.priority === null ? "" : ` #${t.priority}`}`,
            )
            .join(", ")
        ) : (
          <span className="muted">none</span>
        ),
    },
    {
      key: "offers",
      header: "Offers",
      render: (c) => (c.offers.length ? formatCountOf(c.offers.length, "offer") : "everyone"),
    },
    {
      key: "actions",
      header: "",
      render: (c) => (
        <span className="row-actions">
          <button
            type="button"
            className="btn btn-small"
            onClick={() => setAction({ kind: "edit", campaign: c })}
          >
            Edit
          </button>
          <button
            type="button"
            className="btn btn-small btn-danger-ghost"
            onClick={() => {
              remove.reset();
              setAction({ kind: "delete", campaign: c });
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
        <CheckboxFilter view={view} name="running">
          Running now
        </CheckboxFilter>
        <span className="toolbar-spacer" />
        <ExportCsvLink list="rating-campaigns" query={view.query} pending={view.pending} />
        <button type="button" className="btn btn-primary" onClick={() => setAction({ kind: "create" })}>
          New campaign
        </button>
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <ListTable
        view={view}
        list={list}
        caption="Rating campaigns"
        columns={columns}
        rowKey={(c) => c.id}
        empty={
          view.isFiltered
            ? "No campaign matches this filter."
            : "No rating campaigns yet. A campaign asks entitled users to rate features while it runs."
        }
      />
      {action?.kind === "create" ? <RatingCampaignDialog onClose={() => setAction(null)} /> : null}
      {action?.kind === "edit" ? (
        <RatingCampaignDialog campaign={action.campaign} onClose={() => setAction(null)} />
      ) : null}
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
          <p>
            {action.campaign.isRunning
              ? "The campaign is running: users stop being asked at once."
              : "The campaign is not running."}{" "}
            Its {formatCountOf(action.campaign.targets.length, "target")} go with it.
          </p>
        ) : null}
      </ConfirmDialog>
    </>
  );
}
