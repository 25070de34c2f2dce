"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../shell/trpc-provider";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { StatusBadge } from "../pricing/status-badge";
import { EntitlementPlan } from "./entitlement-plan";
import { EntitlementGrants } from "./entitlement-grants";
import { BillingForm } from "./billing-form";
import { EntitlementCustomer } from "./entitlement-customer";
import { FeatureOverrides } from "./feature-overrides";
import { ActivationCodesPanel } from "../licensing/activation-codes-panel";
import { DevicesPanel } from "../licensing/devices-panel";
import { SeatUtilizationPanel } from "../licensing/seat-utilization-panel";
import { BalancePanel } from "../metering/balance-panel";
import { MetersPanel } from "../metering/meters-panel";

/**
 * One entitlement: summary, plan and history, effective features, add-on grants, activation codes,
 * devices, credit balances and billing.
 */
export function EntitlementDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const query = useQuery(trpc.entitlements.get.queryOptions({ id }));
  const features = useQuery(trpc.entitlements.effectiveFeatures.queryOptions({ id }));
  const toggle = useMutation(
    trpc.entitlements.setActivations.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() }),
    }),
  );
  if (query.error) return <ProblemAlert problem={problemFrom(query.error)} />;
  const e = query.data;
  if (!e) return <p className="muted">Loading…</p>;
  return (
    <>
      <div className="page-head">
        <p className="muted">
          <Link href="/admin/entitlements">Entitlements</Link>
        </p>
        <h1>
          {e.name} <StatusBadge status={e.status} />
        </h1>
        <p className="muted">
          Subscription {e.subscriptionStatus} ·{" "}
          {e.expirationDateTime ? `expires ${formatDateTime(e.expirationDateTime)}` : "never expires"}
          {e.isEntitlementTrial ? " · trial" : ""} · transfers {e.transferCount}
          {e.sourceOfferId ? " · made from an offer" : " · direct"}
        </p>
      </div>
      <section className="panel" aria-labelledby="activations-heading">
        <div className="panel-head">
          <h2 id="activations-heading">Activations</h2>
          <span className="muted">
            {e.activationsEnabled ? "New activations are allowed." : "New activations are refused."}
          </span>
          <span className="toolbar-spacer" />
          {e.status === "Archived" ? null : (
            <button
              type="button"
              className="btn btn-small"
              disabled={toggle.isPending}
              onClick={() => toggle.mutate({ id, enabled: !e.activationsEnabled })}
            >
              {e.activationsEnabled ? "Disable activations" : "Enable activations"}
            </button>
          )}
        </div>
        <ProblemAlert problem={problemFrom(toggle.error)} onDismiss={() => toggle.reset()} />
      </section>
      <EntitlementCustomer key={e.customerId ?? "none"} entitlement={e} />
      <EntitlementPlan entitlement={e} />
      <section className="panel" aria-labelledby="features-heading">
        <div className="panel-head">
          <h2 id="features-heading">Effective features</h2>
          <span className="muted">product → plan → add-ons → overrides</span>
        </div>
        <ProblemAlert problem={problemFrom(features.error)} />
        <FeatureOverrides key={e.revisionNumber} entitlement={e} />
        <div className="table-wrap">
          <table className="table table-compact" aria-label="Effective features">
            <thead>
              <tr>
                <th scope="col">Feature</th>
                <th scope="col">Value</th>
                <th scope="col">Enabled</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>
              {(features.data?.features ?? []).map((f) => (
                <tr key={f.featureCode}>
                  <td>
                    <code>{f.featureCode}</code>{" "}
                    {f.featureName ? <span className="muted">{f.featureName}</span> : null}
                  </td>
                  <td>
                    {f.value ??
                      (f.usageTiers.length ? (
                        `${f.usageTiers.length} tier(s)`
                      ) : (
                        <span className="muted">none</span>
                      ))}
                  </td>
                  <td>{f.isEnabled ? "yes" : "no"}</td>
                  <td className="muted">{f.sources.join(" → ")}</td>
                </tr>
              ))}
              {features.data && !features.data.features.length ? (
                <tr>
                  <td colSpan={4} className="muted">
                    No features.
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>
      </section>
      <EntitlementGrants entitlement={e} />
      <section className="detail-section" aria-labelledby="codes-heading">
        <h2 id="codes-heading">Activation codes</h2>
        <ActivationCodesPanel entitlementId={id} />
      </section>
      <SeatUtilizationPanel entitlementId={id} linkToSessions />
      <section className="detail-section" aria-labelledby="devices-heading">
        <h2 id="devices-heading">Devices</h2>
        <DevicesPanel entitlementId={id} />
      </section>
      <section className="detail-section" aria-labelledby="meters-heading">
        <h2 id="meters-heading">Meters</h2>
        <MetersPanel entitlementId={id} />
      </section>
      <section className="detail-section" aria-labelledby="balances-heading">
        <h2 id="balances-heading">Credit balances</h2>
        <BalancePanel entitlementId={id} />
      </section>
      <BillingForm entitlementId={id} />
    </>
  );
}
