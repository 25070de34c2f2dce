"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { TClientResponse } from "@/server/domain/identity/oauth-clients";
import { useTRPC } from "../shell/trpc-provider";
import { Dialog } from "../ui/dialog";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";

/**
 * The API-client screen's control for an integrator client: which callback scopes its webhook
 * subscriptions may request (none by default; docs/security.md "Webhooks"). Narrowing the
 * allowance narrows the integration's existing subscriptions too.
 */
export function CallbackAllowanceDialog({
  client,
  onClose,
}: {
  client: TClientResponse;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const options = useQuery(trpc.webhooks.callbackScopes.queryOptions());
  const [scopes, setScopes] = useState<string[]>(client.callbackScopeAllowance);
  const save = useMutation(
    trpc.webhooks.setCallbackScopeAllowance.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.clients.pathKey() });
        onClose();
      },
    }),
  );
  const toggle = (scope: string) =>
    setScopes((current) =>
      current.includes(scope) ? current.filter((s) => s !== scope) : [...current, scope],
    );

  return (
    <Dialog
      open
      wide
      title={`Callback scopes for “${client.name}”`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn-primary"
            disabled={save.isPending}
            onClick={() => save.mutate({ clientId: client.id, callbackScopes: scopes })}
          >
            {save.isPending ? "Saving…" : "Save allowance"}
          </button>
        </>
      }
    >
      <ProblemAlert problem={problemFrom(save.error)} />
      <p className="muted small">
        Deliveries to this integration&apos;s subscriptions may carry a 5-minute token usable against the API
        with the callback scopes the subscription requested. The integration may request only the scopes
        allowed here; removing one removes it from its subscriptions at once.
      </p>
      <div className="check-grid" role="group" aria-label="Allowed callback scopes">
        {(options.data ?? []).map((scope) => (
          <label key={scope} className="checkbox">
            <input type="checkbox" checked={scopes.includes(scope)} onChange={() => toggle(scope)} />{" "}
            <code>{scope}</code>
          </label>
        ))}
      </div>
    </Dialog>
  );
}
