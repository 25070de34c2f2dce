"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { TEntitlementResponse } from "@/server/domain/entitlements/entitlement/entitlement.schemas";
import {
  ZAddOnGrantCreateRequest,
  type TAddOnGrantCreateRequest,
} from "@/server/domain/entitlements/add-on-grants/add-on-grant.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { ConfirmDialog, DateField, Form, SelectField, useSchemaForm } from "../ui/form";

type Values = { addOnId: string; expiresOn: string };

/** Add-on grants of the entitlement: grant one of its plan's suite, revoke. */
export function EntitlementGrants({ entitlement }: { entitlement: TEntitlementResponse }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useSchemaForm<Values, TAddOnGrantCreateRequest>(ZAddOnGrantCreateRequest, {
    defaultValues: { addOnId: "", expiresOn: "" },
    // The date picker's day, from the start of that day in UTC; blank never expires.
    toPayload: (v) => ({
      addOnId: v.addOnId,
      startsAtUtc: null,
      expiresAtUtc: v.expiresOn ? `${v.expiresOn}T00:00:00Z` : null,
      reference: null,
      campaignId: null,
    }),
    fieldOf: { expiresAtUtc: "expiresOn" },
  });
  const [revoking, setRevoking] = useState<{ id: string; name: string } | null>(null);
  const grants = useQuery(trpc.entitlements.grants.queryOptions({ id: entitlement.id }));
  const addOns = useQuery(
    trpc.addOns.list.queryOptions({ pageNumber: 1, pageSize: 100, filter: "status!=Archived" }),
  );
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() });
  const grant = useMutation(
    trpc.entitlements.grant.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        form.reset();
      },
      onError: form.showProblem,
    }),
  );
  const revoke = useMutation(
    trpc.entitlements.revokeGrant.mutationOptions({
      onSuccess: async () => {
        await invalidate();
        setRevoking(null);
      },
    }),
  );

  return (
    <section className="panel" aria-labelledby="grants-heading">
      <div className="panel-head">
        <h2 id="grants-heading">Add-on grants</h2>
        <span className="muted">The add-on&apos;s suite must be the plan&apos;s.</span>
      </div>
      <ProblemAlert problem={problemFrom(grants.error)} />
      {entitlement.status === "Archived" ? null : (
        <Form
          form={form}
          id="grant-add-on"
          className="form-inline"
          label="Grant an add-on"
          onSubmit={(payload) => {
            grant.reset();
            grant.mutate({ id: entitlement.id, grant: payload });
          }}
        >
          <SelectField
            name="addOnId"
            label="Add-on"
            emptyLabel="Choose an add-on"
            options={(addOns.data?.items ?? []).map((a) => ({
              value: a.id,
              label: `${a.name} (${a.suiteName})`,
            }))}
          />
          <DateField name="expiresOn" label="Expires" hint="Blank: never." />
          <button type="submit" className="btn btn-small btn-primary" disabled={grant.isPending}>
            Grant
          </button>
        </Form>
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
                      onClick={() => {
                        revoke.reset();
                        setRevoking({ id: g.id, name: g.addOnName });
                      }}
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
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${revoking?.name ?? "the grant"}?`}
        confirmLabel="Revoke grant"
        danger
        busy={revoke.isPending}
        error={revoke.error}
        consequences={[
          "The add-on's values leave this entitlement's licenses from now on.",
          "A revoked grant stays in the list and cannot be restored; grant the add-on again instead.",
        ]}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate({ id: entitlement.id, grantId: revoking.id })}
      />
    </section>
  );
}
