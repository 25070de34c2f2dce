"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { TEntitlementResponse } from "@/server/domain/entitlements/entitlement/entitlement.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";

/** Add-on grants of the entitlement: grant one of its plan's suite, revoke. */
export function EntitlementGrants({ entitlement }: { entitlement: TEntitlementResponse }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [addOnId, setAddOnId] = useState("");
  const [expiresAt, setExpiresAt] = useState("");
  const grants = useQuery(trpc.entitlements.grants.queryOptions({ id: entitlement.id }));
  const addOns = useQuery(
    trpc.addOns.list.queryOptions({ pageNumber: 1, pageSize: 100, filter: "status!=Archived" }),
  );
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() });
  const grant = useMutation(trpc.entitlements.grant.mutationOptions({ onSuccess: invalidate }));
  const revoke = useMutation(trpc.entitlements.revokeGrant.mutationOptions({ onSuccess: invalidate }));

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!addOnId) return;
    grant.mutate({
      id: entitlement.id,
      grant: {
        addOnId,
        startsAtUtc: null,
        expiresAtUtc: expiresAt ? new Date(expiresAt).toISOString() : null,
        reference: null,
        campaignId: null,
      },
    });
  }

  return (
    <section className="panel" aria-labelledby="grants-heading">
      <div className="panel-head">
        <h2 id="grants-heading">Add-on grants</h2>
        <span className="muted">The add-on&apos;s suite must be the plan&apos;s.</span>
      </div>
      <ProblemAlert
        problem={problemFrom(grant.error ?? revoke.error)}
        onDismiss={() => {
          grant.reset();
          revoke.reset();
        }}
      />
      {entitlement.status === "Archived" ? null : (
        <form className="toolbar" onSubmit={submit}>
          <select aria-label="Add-on" value={addOnId} onChange={(e) => setAddOnId(e.target.value)}>
            <option value="">Choose an add-on</option>
            {(addOns.data?.items ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.suiteName})
              </option>
            ))}
          </select>
          <input
            type="date"
            aria-label="Expires"
            value={expiresAt}
            onChange={(e) => setExpiresAt(e.target.value)}
          />
          <button type="submit" className="btn btn-small btn-primary" disabled={grant.isPending || !addOnId}>
            Grant
          </button>
        </form>
      )}
      <div className="table-wrap">
        <table className="table table-compact" aria-label="Add-on grants">
          <thead>
            <tr>
              <th scope="col">Add-on</th>
              <th scope="col">Starts</th>
              <th scope="col">Expires</th>
              <th scope="col">State</th>
              <th scope="col" />
            </tr>
          </thead>
          <tbody>
            {(grants.data?.items ?? []).map((g) => (
              <tr key={g.id}>
                <td>
                  {g.addOnName} <code>{g.addOnCode}</code>
                </td>
                <td>{formatDateTime(g.startsAt)}</td>
                <td>{g.expiresAt ? formatDateTime(g.expiresAt) : <span className="muted">never</span>}</td>
                <td>{g.isRevoked ? "revoked" : g.isActive ? "active" : "inactive"}</td>
                <td>
                  {g.isRevoked ? null : (
                    <button
                      type="button"
                      className="btn btn-small btn-danger-ghost"
                      disabled={revoke.isPending}
                      onClick={() => revoke.mutate({ id: entitlement.id, grantId: g.id })}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
            {grants.data && !grants.data.items.length ? (
              <tr>
                <td colSpan={5} className="muted">
                  No grants.
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
    </section>
  );
}
