"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { TSessionResponse } from "@/server/domain/licensing/sessions/session-read-model";
import { useTRPC } from "../shell/trpc-provider";
import type { Column } from "../ui/data-table";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { sieveValue } from "../ui/sieve";
import { useListState } from "../ui/use-list-state";
import { ListTable, SearchFilter, SelectFilter } from "../ui/list-controls";
import { SeatUtilizationPanel } from "./seat-utilization-panel";
import { ExportCsvLink } from "../operations/export-link";
import { CustomerUserPicker, EntitlementPicker } from "../entitlements/pickers";
import { ReleaseSessionDialog } from "./release-session-dialog";
import Link from "next/link";
import { useState } from "react";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const reasons = ["Released", "DeviceReset", "DeviceBlocked", "LeaseExpired"] as const;
/** The id a picker (or a link's URL) holds, lower-cased; "" unless it is a whole UUID. */
const uuidOf = (text: string) => (UUID.test(text.trim()) ? text.trim().toLowerCase() : "");

function SessionState({ s }: { s: TSessionResponse }) {
  if (s.isActive) return <span className="badge badge-ok">Active</span>;
  if (s.revokedAt)
    return (
      <span className="badge badge-muted" title={`Ended ${formatDateTime(s.revokedAt)}`}>
        {s.revocationReason}
      </span>
    );
  return <span className="badge badge-muted">Lapsed</span>;
}

/**
 * The back office's sessions: every activation of the tenant (or one customer user's), filtered by
 * entitlement, state, revocation reason and device name; with an entitlement chosen, its live seats
 * and seat chart.
 */
export function SessionsTable() {
  const trpc = useTRPC();
  const [releasing, setReleasing] = useState<TSessionResponse | null>(null);
  const view = useListState({
    filters: { entitlementId: "", userId: "", state: "active", reason: "", device: "" },
    sort: { field: "activatedAt", descending: true },
    terms: (f) => [
      uuidOf(f.entitlementId) && `entitlementId==${uuidOf(f.entitlementId)}`,
      f.state === "active" && "isActive==true",
      f.state === "ended" && "isActive==false",
      f.reason && `revocationReason==${f.reason}`,
      f.device && `deviceName@=*${sieveValue(f.device)}`,
    ],
  });
  const entitlementId = uuidOf(view.settled.entitlementId);
  const userId = uuidOf(view.settled.userId);
  const options = { placeholderData: keepPreviousData, refetchInterval: 30_000 };
  const all = useQuery({ ...trpc.sessions.list.queryOptions(view.query), ...options, enabled: !userId });
  const ofUser = useQuery({
    ...trpc.sessions.byUser.queryOptions({ ...view.query, userId }),
    ...options,
    enabled: Boolean(userId),
  });
  const list = userId ? ofUser : all;

  const columns: Column<TSessionResponse>[] = [
    {
      key: "device",
      header: "Device",
      sortField: "deviceName",
      render: (s) => (
        <span>
          {s.deviceName ?? <span className="muted">unnamed</span>}
          {s.processId ? <span className="muted small"> · pid {s.processId}</span> : null}
          <br />
          <code className="small muted" title={s.deviceFingerprintHash}>
            {s.deviceFingerprintHash.slice(0, 12)}…
          </code>
        </span>
      ),
    },
    ...(entitlementId
      ? []
      : [
          {
            key: "entitlement",
            header: "Entitlement",
            render: (s: TSessionResponse) => (
              <span>
                <Link href={`/admin/entitlements/${s.entitlementId}`}>
                  {s.entitlementName ?? "entitlement"}
                </Link>{" "}
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  title="Show this entitlement's live seats"
                  onClick={() => view.set("entitlementId", s.entitlementId)}
                >
                  Live seats
                </button>
              </span>
            ),
          },
        ]),
    { key: "state", header: "State", render: (s) => <SessionState s={s} /> },
    {
      key: "flags",
      header: "Kind",
      render: (s) => (
        <span className="chips">
          <span className="chip">{s.activationKind}</span>
          {s.isTrial ? <span className="chip">Trial</span> : null}
          {s.isAnonymousTry ? <span className="chip">Anonymous try</span> : null}
          {s.activatedByUserId ? (
            <span className="chip" title={`User ${s.activatedByUserId}`}>
              Signed-in user
            </span>
          ) : null}
        </span>
      ),
    },
    {
      key: "activated",
      header: "Activated",
      sortField: "activatedAt",
      render: (s) => formatDateTime(s.activatedAt),
    },
    {
      key: "lastContact",
      header: "Last contact",
      sortField: "lastContactAt",
      render: (s) => formatDateTime(s.lastContactAt),
    },
    {
      key: "lease",
      header: "Lease expires",
      sortField: "leaseExpiresAt",
      render: (s) => (
        <span title={`Grace until ${formatDateTime(s.graceExpiresAt)}`}>
          {formatDateTime(s.leaseExpiresAt)}
        </span>
      ),
    },
    {
      key: "validUntil",
      header: "Valid until",
      sortField: "validUntil",
      render: (s) => formatDateTime(s.validUntil),
    },
    {
      key: "actions",
      header: "",
      render: (s) =>
        s.isActive ? (
          <button
            type="button"
            className="btn btn-small btn-danger-ghost"
            aria-label={`Release the session of ${s.deviceName ?? "this device"}`}
            onClick={() => setReleasing(s)}
          >
            Release
          </button>
        ) : null,
    },
  ];

  return (
    <>
      {entitlementId ? (
        <>
          <p>
            <Link href={`/admin/entitlements/${entitlementId}`}>Open the entitlement</Link> ·{" "}
            <a href={`/admin/devices?entitlementId=${entitlementId}`}>its devices</a>
          </p>
          <SeatUtilizationPanel key={entitlementId} entitlementId={entitlementId} />
        </>
      ) : null}
      <div className="toolbar">
        <ExportCsvLink
          list="sessions"
          query={view.query}
          pending={view.pending}
          extra={{ userId: userId || undefined }}
        />
        <EntitlementPicker
          label="Filter by entitlement"
          value={uuidOf(view.values.entitlementId)}
          onChange={(id) => view.set("entitlementId", id)}
        />
        <CustomerUserPicker
          label="Filter by customer user"
          value={uuidOf(view.values.userId)}
          onChange={(id) => view.set("userId", id)}
        />
        <SelectFilter
          view={view}
          name="state"
          label="State"
          options={[
            ["active", "Active"],
            ["ended", "Ended"],
            ["", "All states"],
          ]}
        />
        <SelectFilter
          view={view}
          name="reason"
          label="Revocation reason"
          any="Any reason"
          options={reasons}
        />
        <SearchFilter
          view={view}
          name="device"
          label="Device name"
          placeholder="Device name…"
          style={{ width: 180 }}
        />
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <ListTable
        view={view}
        list={list}
        caption="Sessions"
        columns={columns}
        rowKey={(s) => s.id}
        empty={view.isFiltered ? "No session matches these filters." : "No active sessions yet."}
      />
      <ReleaseSessionDialog session={releasing} onClose={() => setReleasing(null)} />
    </>
  );
}
