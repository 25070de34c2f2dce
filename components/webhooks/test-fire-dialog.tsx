"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { TSubscriptionResponse } from "@/server/domain/webhooks/subscriptions/subscription.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";

/** docs/api.md test-fire: pick a type, see the exact envelope (preview), send it through the pipeline. */
export function TestFireDialog({
  subscription,
  onClose,
}: {
  subscription: TSubscriptionResponse;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const eventTypes = useQuery(trpc.webhooks.eventTypes.queryOptions());
  const own = subscription.eventTypePatterns.filter((p) => p !== "*");
  const [eventType, setEventType] = useState(own[0] ?? "");
  const preview = useQuery(
    trpc.webhooks.previewTestFire.queryOptions({ id: subscription.id, eventType: eventType || undefined }),
  );
  const fire = useMutation(
    trpc.webhooks.testFire.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() }),
    }),
  );
  const options = (eventTypes.data ?? []).filter((t) => t.subscribable).map((t) => t.type);

  return (
    <Dialog
      open
      wide
      title="Test-fire a sample event"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Close
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={fire.isPending}
            onClick={() => fire.mutate({ id: subscription.id, eventType: eventType || undefined })}
          >
            {fire.isPending ? "Sending…" : "Send test event"}
          </button>
        </>
      }
    >
      <ProblemAlert problem={problemFrom(fire.error ?? preview.error)} />
      {fire.data ? (
        <div className="alert" role="status" data-testid="test-fire-sent">
          Queued <code>{fire.data.eventType}</code> as envelope <code>{fire.data.envelopeId}</code>
          {subscription.targetKind === "Capture"
            ? "; it appears in the capture viewer."
            : "; follow it in the delivery history."}
        </div>
      ) : null}
      <Field
        label="Event type"
        htmlFor="tf-type"
        hint="Sample payloads use fixed placeholder ids and carry _test: true, covered by the signature."
      >
        <select
          id="tf-type"
          value={eventType}
          onChange={(e) => {
            setEventType(e.target.value);
            fire.reset();
          }}
        >
          {own.length ? null : <option value="">Default ({options[0] ?? "…"})</option>}
          {options.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </Field>
      <p className="muted small">The envelope that will be sent (its id and time are fresh at send):</p>
      <pre className="json" data-testid="test-fire-preview">
        {preview.data ? JSON.stringify(preview.data, null, 2) : "Loading…"}
      </pre>
    </Dialog>
  );
}
