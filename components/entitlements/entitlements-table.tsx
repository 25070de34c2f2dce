"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { TEntitlementResponse } from "@/server/domain/entitlements/entitlement/entitlement.schemas";
import { useTRPC } from "../shell/trpc-provider";
import type { Column } from "../ui/data-table";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDate, formatDateTime } from "../ui/format";
import { sieveValue } from "../ui/sieve";
import { useListState } from "../ui/use-list-state";
import { CheckboxFilter, ListTable, SearchFilter, SelectFilter } from "../ui/list-controls";
import { StatusBadge } from "../pricing/status-badge";
import { EntitlementCreateDialog } from "./entitlement-create-dialog";
import { EntitlementBulkRenewDialog, type SelectedEntitlement } from "./entitlement-bulk-renew-dialog";
import { ExportCsvLink } from "../operations/export-link";
import { CustomerPicker, useCustomerNames } from "./pickers";
import { enumLabel, subscriptionStatusLabels } from "../ui/enum-labels";
import { MAX_BULK_RENEWALS } from "@/server/domain/entitlements/entitlement/renewal.schemas";

/**
 * Entitlements with the filters the back office needs (customer, status, offer and expiring soon),
 * and a selection to extend or export together (at most 100, what one bulk call takes).
 */
export function EntitlementsTable() {
  const trpc = useTRPC();
  const router = useRouter();
  const view = useListState({
    filters: { q: "", status: "", offerId: "", customerId: "", expiringSoon: false },
    terms: (f) => [
      f.q && `name|reference|externalReference@=*${sieveValue(f.q)}`,
      f.status && `status==${f.status}`,
      f.offerId && `sourceOfferId==${f.offerId}`,
      f.customerId && `customerId==${f.customerId}`,
    ],
  });
  const [creating, setCreating] = useState(false);
  const [selected, setSelected] = useState<SelectedEntitlement[]>([]);
  const [extending, setExtending] = useState(false);
  const me = useQuery(trpc.me.get.queryOptions());
  const canExtend = me.data?.permissions.includes("entitlements.write") ?? false;
  const offers = useQuery(trpc.entitlements.offers.queryOptions({ pageNumber: 1, pageSize: 100 }));
  const list = useQuery({
    ...trpc.entitlements.list.queryOptions({
      ...view.query,
      ...(view.settled.expiringSoon ? { expiringWithinDays: 30 } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  const isSelected = (id: string) => selected.some((e) => e.id === id);
  const full = selected.length >= MAX_BULK_RENEWALS;
  const toggle = (e: TEntitlementResponse, on: boolean) =>
    setSelected(
      on
        ? [
            ...selected,
            { id: e.id, name: e.name, status: e.status, expirationDateTime: e.expirationDateTime },
          ]
        : selected.filter((s) => s.id !== e.id),
    );
  const rows = list.data?.items ?? [];
  const customers = useCustomerNames(rows.map((e) => e.customerId));
  // While the names load, the column waits rather than showing a customer's id.
  const customerName = (id: string | null) =>
    id ? (customers.get(id) ?? <span className="muted">…</span>) : <span className="muted">unassigned</span>;
  const allOnPage = rows.length > 0 && rows.every((e) => isSelected(e.id));
  const columns: Column<TEntitlementResponse>[] = [
    {
      key: "select",
      header: "",
      render: (e) => (
        <input
          type="checkbox"
          aria-label={`Select ${e.name}`}
          checked={isSelected(e.id)}
          disabled={full && !isSelected(e.id)}
          onChange={(event) => toggle(e, event.target.checked)}
        />
      ),
    },
    {
      key: "name",
      header: "Entitlement",
      sortField: "name",
      render: (e) => <Link href={`/admin/entitlements/${e.id}`}>{e.name}</Link>,
    },
    {
      key: "status",
      header: "Status",
      sortField: "status",
      render: (e) => <StatusBadge status={e.status} />,
    },
    { key: "customer", header: "Customer", render: (e) => customerName(e.customerId) },
    {
      key: "plan",
      header: "Plan",
      sortField: "planName",
      render: (e) => e.planName ?? <span className="muted">none</span>,
    },
    {
      key: "subscription",
      header: "Subscription",
      sortField: "subscriptionStatus",
      render: (e) => enumLabel(subscriptionStatusLabels, e.subscriptionStatus),
    },
    {
      key: "expires",
      header: "Expires",
      sortField: "expirationDateTime",
      render: (e) =>
        e.expirationDateTime ? formatDate(e.expirationDateTime) : <span className="muted">never</span>,
    },
    { key: "created", header: "Created", sortField: "createdAt", render: (e) => formatDateTime(e.createdAt) },
  ];
  return (
    <>
      <div className="toolbar toolbar-filters">
        <SearchFilter
          view={view}
          name="q"
          label="Filter by name or reference"
          placeholder="Name or reference…"
          style={{ width: 220 }}
          showLabel
        />
        <SelectFilter
          view={view}
          name="status"
          label="Status"
          any="All statuses"
          options={["Draft", "Published", "Archived"]}
          showLabel
        />
        <SelectFilter
          view={view}
          name="offerId"
          label="Offer"
          any="All offers"
          options={(offers.data?.items ?? []).map((o) => [o.id, o.name] as const)}
          showLabel
        />
        <CustomerPicker
          label="Customer"
          value={view.values.customerId}
          onChange={(id) => view.set("customerId", id)}
        />
        <CheckboxFilter view={view} name="expiringSoon">
          Expiring within 30 days
        </CheckboxFilter>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={allOnPage}
            disabled={!rows.length}
            onChange={(event) =>
              setSelected(
                event.target.checked
                  ? [
                      ...selected,
                      ...rows
                        .filter((e) => !isSelected(e.id))
                        .map((e) => ({
                          id: e.id,
                          name: e.name,
                          status: e.status,
                          expirationDateTime: e.expirationDateTime,
                        })),
                    ].slice(0, MAX_BULK_RENEWALS)
                  : selected.filter((s) => !rows.some((e) => e.id === s.id)),
              )
            }
          />{" "}
          Select all on this page
        </label>
        <span className="toolbar-spacer" />
        <ExportCsvLink
          list="entitlements"
          query={view.query}
          pending={view.pending}
          extra={{ expiringWithinDays: view.settled.expiringSoon ? 30 : undefined }}
        />
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
          New entitlement
        </button>
      </div>
      {selected.length ? (
        <div className="toolbar" role="region" aria-label="Selection">
          <strong>{selected.length} selected</strong>
          {full ? <span className="muted small">At most {MAX_BULK_RENEWALS} at a time.</span> : null}
          {canExtend ? (
            <button type="button" className="btn btn-small" onClick={() => setExtending(true)}>
              Extend selected
            </button>
          ) : null}
          <ExportCsvLink
            list="entitlements"
            query={{ filter: `id==${selected.map((e) => e.id).join("|")}`, sortOrder: view.query.sortOrder }}
            label="Export selection (CSV)"
            testId="export-entitlements-selection"
          />
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setSelected([])}>
            Clear selection
          </button>
        </div>
      ) : null}
      <ProblemAlert problem={problemFrom(list.error)} />
      <ListTable
        view={view}
        list={list}
        caption="Entitlements"
        columns={columns}
        rowKey={(e) => e.id}
        empty="No entitlement matches. Entitlements are made from a Published offer or directly."
      />
      {extending ? (
        <EntitlementBulkRenewDialog
          entitlements={selected}
          onClose={() => setExtending(false)}
          onDone={(renewed) => setSelected(selected.filter((e) => !renewed.includes(e.id)))}
        />
      ) : null}
      {creating ? (
        <EntitlementCreateDialog
          onClose={() => setCreating(false)}
          onCreated={(e) => router.push(`/admin/entitlements/${e.id}`)}
        />
      ) : null}
    </>
  );
}
