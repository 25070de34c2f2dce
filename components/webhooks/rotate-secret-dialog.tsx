"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { TSubscriptionResponse } from "@/server/domain/webhooks/subscriptions/subscription.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { SecretDialog } from "./secret-dialog";

const overlaps = [
  [86_400, "24 hours (default)"],
  [3_600, "1 hour"],
  [7 * 86_400, "7 days"],
  [0, "None: the old secret stops at once"],
] as const;

/** Rotation with an overlap window; the new secret is shown once. */
export function RotateSecretDialog({
  subscription,
  onClose,
}: {
  subscription: TSubscriptionResponse;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [overlapSeconds, setOverlapSeconds] = useState<number>(86_400);
  const rotate = useMutation(
    trpc.webhooks.rotateSecret.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() }),
    }),
  );
  if (rotate.data?.secret)
    return <SecretDialog title="New signing secret" secret={rotate.data.secret} onClose={onClose} />;
  return (
    <Dialog
      open
      title="Rotate the signing secret"
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose} disabled={rotate.isPending}>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={rotate.isPending}
            onClick={() => rotate.mutate({ id: subscription.id, overlapSeconds })}
          >
            {rotate.isPending ? "Rotating…" : "Rotate secret"}
          </button>
        </>
      }
    >
      <ProblemAlert problem={problemFrom(rotate.error)} />
      <p>
        A new secret signs every delivery from now on. During the overlap, <code>webhook-signature</code>{" "}
        carries a signature with each secret, so the receiver can switch at its pace.
      </p>
      <Field label="Overlap window" htmlFor="rs-overlap">
        <select
          id="rs-overlap"
          value={overlapSeconds}
          onChange={(e) => setOverlapSeconds(Number(e.target.value))}
        >
          {overlaps.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </Field>
    </Dialog>
  );
}
