"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import type { TOfferResponse } from "@/server/domain/entitlements/offers/offer.schemas";
import { useTRPC } from "../shell/trpc-provider";
import type { Column } from "../ui/data-table";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatCountOf, formatDateTime } from "../ui/format";
import { sieveValue } from "../ui/sieve";
import { useListState } from "../ui/use-list-state";
import { ListTable, SearchFilter, SelectFilter } from "../ui/list-controls";
import { StatusBadge } from "../pricing/status-badge";
import { OfferCreateDialog } from "./offer-create-dialog";
import { ExportCsvLink } from "../operations/export-link";

/** Offers: the templates entitlements are made from. Draft offers are published from here. */
export function OffersTable() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const view = useListState({
    filters: { q: "", status: "" },
    terms: (f) => [f.q && `name@=*${sieveValue(f.q)}`, f.status && `status==${f.status}`],
  });
  const router = useRouter();
  const [creating, setCreating] = useState(false);
  const [publishing, setPublishing] = useState<TOfferResponse | null>(null);
  const list = useQuery({
    ...trpc.entitlements.offers.queryOptions(view.query),
    placeholderData: keepPreviousData,
  });
  const publish = useMutation(
    trpc.entitlements.publishOffer.mutationOptions({
      onSuccess: () => {
        setPublishing(null);
        return queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() });
      },
    }),
  );
  const columns: Column<TOfferResponse>[] = [
    {
      key: "name",
      header: "Offer",
      sortField: "name",
      render: (o) => (
        <Link href={`/admin/offers/${o.id}`}>
          <strong>{o.name}</strong>
        </Link>
      ),
    },
    {
      key: "status",
      header: "Status",
      sortField: "status",
      render: (o) => <StatusBadge status={o.status} />,
    },
    { key: "version", header: "Version", sortField: "version", align: "right", render: (o) => o.version },
    {
      key: "products",
      header: "Products",
      render: (o) =>
        o.products.map((p) => p.name ?? p.productCode).join(", ") || <span className="muted">none</span>,
    },
    { key: "plan", header: "Plan", render: (o) => o.planName ?? <span className="muted">none</span> },
    {
      key: "trial",
      header: "Trial",
      render: (o) =>
        o.isEntitlementTrial
          ? `yes${o.validityDays ? ` (${formatCountOf(o.validityDays, "day")})` : ""}`
          : "no",
    },
    { key: "updated", header: "Updated", sortField: "updatedAt", render: (o) => formatDateTime(o.updatedAt) },
    {
      key: "actions",
      header: "",
      render: (o) =>
        o.status === "Draft" ? (
          <button
            type="button"
            className="btn btn-small"
            onClick={() => {
              publish.reset();
              setPublishing(o);
            }}
          >
            Publish
          </button>
        ) : null,
    },
  ];
  return (
    <>
      <div className="toolbar">
        <SearchFilter view={view} name="q" label="Filter by name" placeholder="Filter by name…" />
        <SelectFilter
          view={view}
          name="status"
          label="Status"
          any="All statuses"
          options={["Draft", "Published", "Archived"]}
        />
        <span className="toolbar-spacer" />
        <ExportCsvLink list="offers" query={view.query} pending={view.pending} />
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
          New offer
        </button>
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <ListTable
        view={view}
        list={list}
        caption="Offers"
        columns={columns}
        rowKey={(o) => o.id}
        empty={
          view.isFiltered
            ? "No offer matches this filter."
            : "No offers yet. An offer is a template entitlements are made from."
        }
      />
      <ConfirmDialog
        open={publishing !== null}
        title={`Publish ${publishing?.name ?? "this offer"}?`}
        confirmLabel="Publish offer"
        busy={publish.isPending}
        problem={problemFrom(publish.error)}
        onConfirm={() => publishing && publish.mutate({ id: publishing.id })}
        onCancel={() => setPublishing(null)}
      >
        <p>Entitlements can be made from it from now on. Its settings become read-only.</p>
      </ConfirmDialog>
      {creating ? (
        <OfferCreateDialog
          onClose={() => setCreating(false)}
          onCreated={(offer) => router.push(`/admin/offers/${offer.id}`)}
        />
      ) : null}
    </>
  );
}
