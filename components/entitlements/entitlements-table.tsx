"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { TEntitlementResponse } from "@/server/domain/entitlements/entitlement.schemas";
import { useTRPC } from "../trpc-provider";
import { DataTable, Pager, nextSort, sortOrderOf, type Column, type SortState } from "../data-table";
import { ProblemAlert } from "../problem-alert";
import { problemFrom } from "../problem";
import { formatDate, formatDateTime } from "../format";
import { sieveFilter, sieveValue } from "../sieve";
import { useDebounced } from "../use-debounced";
import { StatusBadge } from "../pricing/status-badge";
import { EntitlementCreateDialog } from "./entitlement-create-dialog";

/** Entitlements with the filters the back office needs: customer, status, offer and expiring soon. */
export function EntitlementsTable() {
  const trpc = useTRPC();
  const router = useRouter();
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState("");
  const [offerId, setOfferId] = useState("");
  const [customerId, setCustomerId] = useState("");
  const [expiringSoon, setExpiringSoon] = useState(false);
  const [sort, setSort] = useState<SortState>(null);
  const [pageNumber, setPageNumber] = useState(1);
  const [creating, setCreating] = useState(false);
  const term = useDebounced(search.trim());
  const offers = useQuery(trpc.entitlements.offers.queryOptions({ pageNumber: 1, pageSize: 100 }));
  const users = useQuery(trpc.customers.users.queryOptions({ pageNumber: 1, pageSize: 100 }));
  const orgs = useQuery(trpc.customers.organizations.queryOptions({ pageNumber: 1, pageSize: 100 }));
  const list = useQuery({
    ...trpc.entitlements.list.queryOptions({
      filter: sieveFilter(term && `name|reference|externalReference@=*${sieveValue(term)}`, status && `status==${status}`, offerId && `sourceOfferId==${offerId}`, customerId && `customerId==${customerId}`),
      sortOrder: sortOrderOf(sort),
      pageNumber,
      pageSize: 20,
      ...(expiringSoon ? { expiringWithinDays: 30 } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  const customerName = (id: string | null) => {
    if (!id) return <span className="muted">unassigned</span>;
    const user = users.data?.items.find((u) => u.id === id);
    if (user) return user.email ?? [user.firstName, user.lastName].filter(Boolean).join(" ");
    return orgs.data?.items.find((o) => o.id === id)?.name ?? id;
  };
  const columns: Column<TEntitlementResponse>[] = [
    { key: "name", header: "Entitlement", sortField: "name", render: (e) => <Link href={`/admin/entitlements/${e.id}`}>{e.name}</Link> },
    { key: "status", header: "Status", sortField: "status", render: (e) => <StatusBadge status={e.status} /> },
    { key: "customer", header: "Customer", render: (e) => customerName(e.customerId) },
    { key: "plan", header: "Plan", sortField: "planName", render: (e) => e.planName ?? <span className="muted">none</span> },
    { key: "subscription", header: "Subscription", sortField: "subscriptionStatus", render: (e) => e.subscriptionStatus },
    { key: "expires", header: "Expires", sortField: "expirationDateTime", render: (e) => (e.expirationDateTime ? formatDate(e.expirationDateTime) : <span className="muted">never</span>) },
    { key: "created", header: "Created", sortField: "createdAt", render: (e) => formatDateTime(e.createdAt) },
  ];
  const reset = () => setPageNumber(1);
  return (
    <>
      <div className="toolbar">
        <input type="search" aria-label="Filter by name or reference" placeholder="Filter by name or reference…" value={search} onChange={(e) => { setSearch(e.target.value); reset(); }} />
        <select aria-label="Status" value={status} onChange={(e) => { setStatus(e.target.value); reset(); }}>
          <option value="">All statuses</option>
          {["Draft", "Published", "Archived"].map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
        <select aria-label="Offer" value={offerId} onChange={(e) => { setOfferId(e.target.value); reset(); }}>
          <option value="">All offers</option>
          {(offers.data?.items ?? []).map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
        </select>
        <select aria-label="Customer" value={customerId} onChange={(e) => { setCustomerId(e.target.value); reset(); }}>
          <option value="">All customers</option>
          {(orgs.data?.items ?? []).map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
          {(users.data?.items ?? []).map((u) => <option key={u.id} value={u.id}>{u.email ?? u.id}</option>)}
        </select>
        <label className="checkbox"><input type="checkbox" checked={expiringSoon} onChange={(e) => { setExpiringSoon(e.target.checked); reset(); }} /> Expiring within 30 days</label>
        <span className="toolbar-spacer" />
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>New entitlement</button>
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <DataTable
        caption="Entitlements"
        columns={columns}
        rows={list.data?.items ?? []}
        rowKey={(e) => e.id}
        sort={sort}
        onSort={(field) => { setSort(nextSort(sort, field)); reset(); }}
        loading={list.isLoading}
        empty="No entitlement matches. Entitlements are made from a Published offer or directly."
      />
      <Pager page={list.data} onPage={setPageNumber} />
      {creating ? <EntitlementCreateDialog onClose={() => setCreating(false)} onCreated={(e) => router.push(`/admin/entitlements/${e.id}`)} /> : null}
    </>
  );
}
