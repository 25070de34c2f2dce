"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { TSessionResponse } from "@/server/domain/licensing/sessions/session-read-model";
import { useTRPC } from "../shell/trpc-provider";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { Pager } from "../ui/data-table";
import { ReleaseSessionDialog } from "./release-session-dialog";

/** The live sessions of one entitlement, each with a Release action. */
export function EntitlementSessions({ entitlementId }: { entitlementId: string }) {
  const trpc = useTRPC();
  const [pageNumber, setPageNumber] = useState(1);
  const [releasing, setReleasing] = useState<TSessionResponse | null>(null);
  const list = useQuery({
    ...trpc.sessions.list.queryOptions({
      pageNumber,
      pageSize: 20,
      filter: `entitlementId==${entitlementId},isActive==true`,
      sortOrder: "-activatedAt",
    }),
    placeholderData: keepPreviousData,
  });
  return (
    <section className="detail-section" aria-labelledby="live-sessions-heading">
      <h2 id="live-sessions-heading">Live sessions</h2>
      <ProblemAlert problem={problemFrom(list.error)} />
      {list.data && !list.data.items.length ? (
        <p className="muted">No live sessions yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table" aria-label="Live sessions">
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">Activated</th>
                <th scope="col">Last contact</th>
                <th scope="col">Lease expires</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {(list.data?.items ?? []).map((s) => (
                <tr key={s.id}>
                  <td>{s.deviceName ?? <span className="muted">unnamed</span>}</td>
                  <td>{formatDateTime(s.activatedAt)}</td>
                  <td>{formatDateTime(s.lastContactAt)}</td>
                  <td>{formatDateTime(s.leaseExpiresAt)}</td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-small btn-danger-ghost"
                      aria-label={`Release the session of ${s.deviceName ?? "this device"}`}
                      onClick={() => setReleasing(s)}
                    >
                      Release
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.data?.totalPages ? (
        <Pager page={list.data} onPage={setPageNumber} busy={list.isPlaceholderData} />
      ) : null}
      <ReleaseSessionDialog session={releasing} onClose={() => setReleasing(null)} />
    </section>
  );
}
