"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../shell/trpc-provider";
import { Dialog } from "../ui/dialog";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { DeliveryStatus } from "./webhook-badges";

/** One delivery: every attempt with its answer, and the exact bytes sent. */
export function DeliveryDetailDialog({
  envelopeId,
  subscriptionId,
  onClose,
}: {
  envelopeId: string;
  subscriptionId: string;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const detail = useQuery(trpc.webhooks.delivery.queryOptions({ envelopeId, subscriptionId }));
  const d = detail.data;
  return (
    <Dialog open wide title={d ? `${d.eventType} delivery` : "Delivery"} onClose={onClose}>
      <ProblemAlert problem={problemFrom(detail.error)} />
      {d ? (
        <>
          <dl className="facts">
            <div>
              <dt>Status</dt>
              <dd>
                <DeliveryStatus status={d.status} />
              </dd>
            </div>
            <div>
              <dt>Envelope (webhook-id)</dt>
              <dd>
                <code className="small">{d.envelopeId}</code>
              </dd>
            </div>
            <div>
              <dt>Attempts</dt>
              <dd>{d.attemptCount}</dd>
            </div>
            <div>
              <dt>Next attempt</dt>
              <dd>{formatDateTime(d.nextAttemptAt)}</dd>
            </div>
            {d.replayOf ? (
              <div>
                <dt>Replay of</dt>
                <dd>
                  <code className="small">{d.replayOf}</code>
                </dd>
              </div>
            ) : null}
            {d.isTest ? (
              <div>
                <dt>Test event</dt>
                <dd>yes</dd>
              </div>
            ) : null}
          </dl>
          <h3>Attempts</h3>
          {d.attempts.length === 0 ? (
            <p className="muted">
              {d.status === "captured" ? "Captured: nothing is sent." : "No attempt yet."}
            </p>
          ) : (
            <div className="table-wrap">
              <table className="table table-compact attempts" data-testid="attempts">
                <thead>
                  <tr>
                    <th>#</th>
                    <th>Started</th>
                    <th>Status</th>
                    <th className="num">HTTP</th>
                    <th className="num">ms</th>
                    <th>Error / response excerpt</th>
                  </tr>
                </thead>
                <tbody>
                  {d.attempts.map((a) => (
                    <tr key={a.attemptNumber}>
                      <td>{a.attemptNumber}</td>
                      <td className="nowrap">{formatDateTime(a.startedAt)}</td>
                      <td>
                        <DeliveryStatus status={a.status} />
                      </td>
                      <td className="num">{a.responseStatus ?? "—"}</td>
                      <td className="num">{a.durationMs ?? "—"}</td>
                      <td>
                        {a.error ? <div>{a.error}</div> : null}
                        {a.responseExcerpt ? <div className="excerpt">{a.responseExcerpt}</div> : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <h3>Request body</h3>
          <pre className="json">{JSON.stringify(d.envelope, null, 2)}</pre>
        </>
      ) : detail.isLoading ? (
        <p className="muted">Loading…</p>
      ) : null}
    </Dialog>
  );
}
