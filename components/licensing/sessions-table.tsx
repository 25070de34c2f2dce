"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { TSessionResponse } from "@/server/domain/licensing/session-read-model";
import { useTRPC } from "../trpc-provider";
import { DataTable, Pager, nextSort, sortOrderOf, type Column, type SortState } from "../data-table";
import { ProblemAlert } from "../problem-alert";
import { problemFrom } from "../problem";
import { formatDateTime } from "../format";
import { sieveFilter, sieveValue } from "../sieve";
import { useDebounced } from "../use-debounced";
import { SeatUtilizationPanel } from "./seat-utilization-panel";

const PAGE_SIZE = 20;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const reasons = ["Released", "DeviceReset", "DeviceBlocked", "LeaseExpired"] as const;

function SessionState({ s }: { s: TSessionResponse }) {
  if (s.isActive) return <span className="badge badge-ok">Active</span>;
  if (s.revokedAt) return <span className="badge badge-muted" title={`Ended ${formatDateTime(s.revokedAt)}`}>{s.revocationReason}</span>;
  return <span className="badge badge-muted">Lapsed</span>;
}

/**
 * The back office's sessions: every activation of the tenant (or one customer user's), filtered by
 * entitlement, state, revocation reason and device name; with an entitlement chosen, its live seats
 * and seat chart.
 */
export function SessionsTable({ initialEntitlementId, initialUserId }: { initialEntitlementId?: string; initialUserId?: string }) {
  const trpc = useTRPC();
  const [entitlementInput, setEntitlementInput] = useState(initialEntitlementId ?? "");
  const [userInput, setUserInput] = useState(initialUserId ?? "");
  const [state, setState] = useState("active");
  const [reason, setReason] = useState("");
  const [deviceName, setDeviceName] = useState("");
  const [sort, setSort] = useState<SortState>({ field: "activatedAt", descending: true });
  const [pageNumber, setPageNumber] = useState(1);
  const device = useDebounced(deviceName.trim(), 300);

  const entitlementId = UUID.test(entitlementInput.trim()) ? entitlementInput.trim().toLowerCase() : "";
  const userId = UUID.test(userInput.trim()) ? userInput.trim().toLowerCase() : "";
  const query = {
    filter: sieveFilter(
      entitlementId && `entitlementId==${entitlementId}`,
      state === "active" && "isActive==true",
      state === "ended" && "isActive==false",
      reason && `revocationReason==${reason}`,
      device && `deviceName@=*${sieveValue(device)}`,
    ),
    sortOrder: sortOrderOf(sort),
    pageNumber,
    pageSize: PAGE_SIZE,
  };
  const options = { placeholderData: keepPreviousData, refetchInterval: 30_000 };
  const all = useQuery({ ...trpc.sessions.list.queryOptions(query), ...options, enabled: !userId });
  const ofUser = useQuery({ ...trpc.sessions.byUser.queryOptions({ ...query, userId }), ...options, enabled: Boolean(userId) });
  const list = userId ? ofUser : all;
  const resetPage = () => setPageNumber(1);

  const columns: Column<TSessionResponse>[] = [
    {
      key: "device", header: "Device", sortField: "deviceName",
      render: (s) => (
        <span>
          {s.deviceName ?? <span className="muted">unnamed</span>}
          {s.processId ? <span className="muted small"> · pid {s.processId}</span> : null}
          <br />
          <code className="small muted" title={s.deviceFingerprintHash}>{s.deviceFingerprintHash.slice(0, 12)}…</code>
        </span>
      ),
    },
    ...(entitlementId
      ? []
      : [{
          key: "entitlement", header: "Entitlement",
          render: (s: TSessionResponse) => (
            <button type="button" className="btn btn-ghost btn-small" title="Show this entitlement's live seats" onClick={() => { setEntitlementInput(s.entitlementId); resetPage(); }}>
              {s.entitlementName ?? s.entitlementId.slice(0, 8)}
            </button>
          ),
        }]),
    { key: "state", header: "State", render: (s) => <SessionState s={s} /> },
    {
      key: "flags", header: "Kind",
      render: (s) => (
        <span className="chips">
          <span className="chip">{s.activationKind}</span>
          {s.isTrial ? <span className="chip">Trial</span> : null}
          {s.isAnonymousTry ? <span className="chip">Anonymous try</span> : null}
          {s.activatedByUserId ? <span className="chip" title={`User ${s.activatedByUserId}`}>Signed-in user</span> : null}
        </span>
      ),
    },
    { key: "activated", header: "Activated", sortField: "activatedAt", render: (s) => formatDateTime(s.activatedAt) },
    { key: "lastContact", header: "Last contact", sortField: "lastContactAt", render: (s) => formatDateTime(s.lastContactAt) },
    { key: "lease", header: "Lease expires", sortField: "leaseExpiresAt", render: (s) => <span title={`Grace until ${formatDateTime(s.graceExpiresAt)}`}>{formatDateTime(s.leaseExpiresAt)}</span> },
    { key: "validUntil", header: "Valid until", sortField: "validUntil", render: (s) => formatDateTime(s.validUntil) },
  ];

  return (
    <>
      {entitlementId ? (
        <>
          <p>
            <a href={`/admin/entitlements/${entitlementId}`}>Open the entitlement</a> · <a href={`/admin/devices?entitlementId=${entitlementId}`}>its devices</a>
          </p>
          <SeatUtilizationPanel key={entitlementId} entitlementId={entitlementId} />
        </>
      ) : null}
      <div className="toolbar">
        <input
          type="search"
          style={{ width: 210 }}
          aria-label="Filter by entitlement id"
          placeholder="Entitlement id…"
          value={entitlementInput}
          onChange={(e) => { setEntitlementInput(e.target.value); resetPage(); }}
        />
        <input
          type="search"
          style={{ width: 210 }}
          aria-label="Filter by customer user id"
          placeholder="Customer user id…"
          title="Sessions on the customer user's (or their organizations') entitlements, and those their login activated"
          value={userInput}
          onChange={(e) => { setUserInput(e.target.value); resetPage(); }}
        />
        <select aria-label="State" value={state} onChange={(e) => { setState(e.target.value); resetPage(); }}>
          <option value="active">Active</option>
          <option value="ended">Ended</option>
          <option value="">All states</option>
        </select>
        <select aria-label="Revocation reason" value={reason} onChange={(e) => { setReason(e.target.value); resetPage(); }}>
          <option value="">Any reason</option>
          {reasons.map((r) => <option key={r} value={r}>{r}</option>)}
        </select>
        <input type="search" style={{ width: 180 }} aria-label="Device name" placeholder="Device name…" value={deviceName} onChange={(e) => { setDeviceName(e.target.value); resetPage(); }} />
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <DataTable
        caption="Sessions"
        columns={columns}
        rows={list.data?.items ?? []}
        rowKey={(s) => s.id}
        sort={sort}
        onSort={(field) => { setSort(nextSort(sort, field)); resetPage(); }}
        loading={list.isLoading}
        empty="No sessions match."
      />
      <Pager page={list.data} onPage={setPageNumber} />
    </>
  );
}
