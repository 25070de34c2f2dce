"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { TConsumerSessionResponse } from "@/server/domain/licensing/sessions/session-read-model";
import { useTRPC } from "../shell/trpc-provider";
import { Pager } from "../ui/data-table";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { useListState } from "../ui/use-list-state";
import { ConsumerPlansList } from "./consumer-plans-list";
import { portalItem, portalLine, portalList } from "./portal-list";

function SessionPlans({ sessionId }: { sessionId: string }) {
  const trpc = useTRPC();
  const plans = useQuery(trpc.sessions.mySessionPlans.queryOptions({ sessionId }));
  if (plans.error) return <ProblemAlert problem={problemFrom(plans.error)} />;
  return plans.data ? <ConsumerPlansList plans={plans.data} /> : <p className="muted small">Loading…</p>;
}

function Session({ session }: { session: TConsumerSessionResponse }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [showPlans, setShowPlans] = useState(false);
  const release = useMutation(
    trpc.sessions.releaseMySession.mutationOptions({
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.sessions.mySessions.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.sessions.myLicenses.pathKey() }),
        ]),
    }),
  );
  return (
    <li style={portalItem} data-testid="my-session">
      <div style={portalLine}>
        <strong>{session.deviceName ?? "Unnamed device"}</strong>
        {session.processId ? <span className="muted small">process {session.processId}</span> : null}
      </div>
      <div className="muted small">{session.entitlementName ?? "License"}</div>
      <div className="small">
        Last seen {formatDateTime(session.lastContactAt ?? session.activatedAt)} · lease until{" "}
        {formatDateTime(session.leaseExpiresAt)}
      </div>
      <div style={portalLine}>
        <button
          type="button"
          className="btn btn-small btn-danger-ghost"
          disabled={release.isPending}
          onClick={() => release.mutate({ sessionId: session.id })}
          aria-label={`Release ${session.deviceName ?? "this device"}`}
        >
          {release.isPending ? "Releasing…" : "Release"}
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-small"
          aria-expanded={showPlans}
          onClick={() => setShowPlans(!showPlans)}
        >
          {showPlans ? "Hide plans" : "Plans"}
        </button>
      </div>
      <ProblemAlert problem={problemFrom(release.error)} onDismiss={() => release.reset()} />
      {showPlans ? <SessionPlans sessionId={session.id} /> : null}
    </li>
  );
}

/** Portal: the signed-in user's active sessions; releasing one frees its seat for another device. */
export function MySessions() {
  const trpc = useTRPC();
  const view = useListState({
    key: "sessions",
    pageSize: 10,
    sort: { field: "activatedAt", descending: true },
  });
  const sessions = useQuery({
    ...trpc.sessions.mySessions.queryOptions(view.query),
    refetchInterval: 30_000,
  });
  if (sessions.error) return <ProblemAlert problem={problemFrom(sessions.error)} />;
  if (!sessions.data) return <p className="muted">Loading…</p>;
  if (sessions.data.totalCount === 0)
    return (
      <p className="muted" data-testid="no-sessions">
        None of your devices is using a license right now.
      </p>
    );
  return (
    <>
      <ul style={portalList} data-testid="my-sessions">
        {sessions.data.items.map((s) => (
          <Session key={s.id} session={s} />
        ))}
      </ul>
      {sessions.data.totalPages > 1 ? <Pager page={sessions.data} onPage={view.setPageNumber} /> : null}
    </>
  );
}
