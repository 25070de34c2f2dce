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
import { ConfirmDialog } from "../ui/form";
import { portalItem, portalLine, portalList } from "./portal-list";

function Session({ session }: { session: TConsumerSessionResponse }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const device = session.deviceName ?? "This device";
  const license = session.entitlementName ?? "the license";
  const release = useMutation(
    trpc.sessions.releaseMySession.mutationOptions({
      onSuccess: () => (
        setConfirming(false),
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.sessions.mySessions.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.sessions.myLicenses.pathKey() }),
        ])
      ),
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
          onClick={() => (release.reset(), setConfirming(true))}
          aria-label={`Release ${device}`}
        >
          Release
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={`Release ${device}?`}
        confirmLabel={`Release ${device}`}
        danger
        busy={release.isPending}
        error={release.error}
        consequences={[
          `${device} will stop working until it activates again.`,
          `Its seat on ${license} is freed for another device.`,
        ]}
        onCancel={() => setConfirming(false)}
        onConfirm={() => release.mutate({ sessionId: session.id })}
      />
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
