"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useTRPC } from "../shell/trpc-provider";
import { Pager } from "../ui/data-table";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { useListState } from "../ui/use-list-state";

/** What a capture subscription recorded (7 days or the 1,000 most recent), newest first. */
export function CaptureViewer({ subscriptionId }: { subscriptionId: string }) {
  const trpc = useTRPC();
  const view = useListState();
  const captures = useQuery({
    ...trpc.webhooks.captures.queryOptions({
      id: subscriptionId,
      pageNumber: view.pageNumber,
      pageSize: view.pageSize,
    }),
    placeholderData: keepPreviousData,
    refetchInterval: 5_000,
  });
  const items = captures.data?.items ?? [];
  return (
    <section className="panel" aria-label="Captured events">
      <div className="panel-head">
        <h2>Captured events</h2>
        <span className="muted small">kept 7 days or the 1,000 most recent</span>
        <span className="toolbar-spacer" />
        <button type="button" className="btn btn-ghost btn-small" onClick={() => captures.refetch()}>
          Refresh
        </button>
      </div>
      <ProblemAlert problem={problemFrom(captures.error)} />
      {items.length === 0 ? (
        <p className="muted">
          {captures.isLoading
            ? "Loading…"
            : "Nothing captured yet. Test-fire a sample event or wait for a matching event."}
        </p>
      ) : null}
      {items.map((item) => (
        <details key={item.deliveryId} className="captured-event" data-testid="captured-event">
          <summary>
            <code>{item.envelope.type}</code>
            <span className="muted small">{formatDateTime(item.capturedAt)}</span>
            <span className="muted small">entity {item.envelope.entityid}</span>
            {item.envelope.data._test ? <span className="badge badge-muted">test</span> : null}
            {item.envelope.replayof ? <span className="badge badge-muted">replay</span> : null}
          </summary>
          <pre className="json">{JSON.stringify(item.envelope, null, 2)}</pre>
        </details>
      ))}
      <Pager page={captures.data} onPage={view.setPageNumber} />
    </section>
  );
}
