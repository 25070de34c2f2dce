"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../shell/trpc-provider";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { formatDateTime, formatQuantity } from "../ui/format";
import { Section, Table } from "./customer-sections";
import { CustomerGrants } from "./customer-grants";
import { AuditHistory } from "../audit/audit-history";

/**
 * Customer 360: a customer user or organization with everything staff look up about it, and the
 * actions they take from there (reset an entitlement's devices, issue a code, grant credits),
 * through the same procedures as the entitlement pages.
 */
export function Customer360({ kind, id }: { kind: "User" | "Organization"; id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const overview = useQuery(trpc.operations.customer.queryOptions({ kind, id }));
  const me = useQuery(trpc.me.get.queryOptions());
  // Support reads customers but not the audit trail (docs/security.md "Staff roles"): no History then.
  const seesHistory = me.data?.permissions.includes("audit.read") ?? false;
  const [resetting, setResetting] = useState<{ id: string; name: string } | null>(null);
  const [grant, setGrant] = useState<{ entitlementId: string; metricName: string; amount: string }>({
    entitlementId: "",
    metricName: "",
    amount: "",
  });
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.operations.customer.pathKey() });
  const reset = useMutation(
    trpc.licensing.resetDevices.mutationOptions({
      onSuccess: async (r) => {
        setResetting(null);
        setNotice(`Devices reset: ${r.devicesReset} device(s), transfer count ${r.transferCount}.`);
        await refresh();
      },
    }),
  );
  const issue = useMutation(
    trpc.licensing.issueActivationCodes.mutationOptions({
      onSuccess: async (r) => {
        setNotice(`Issued ${r.codes.map((c) => c.code).join(", ")}`);
        await refresh();
      },
    }),
  );
  const deposit = useMutation(
    trpc.balances.deposit.mutationOptions({
      onSuccess: async () => {
        setNotice(`Granted ${grant.amount} credits on ${grant.metricName}.`);
        setGrant((g) => ({ ...g, amount: "" }));
        await refresh();
      },
    }),
  );

  if (overview.error) return <ProblemAlert problem={problemFrom(overview.error)} />;
  const o = overview.data;
  if (!o) return <p className="muted">Loading…</p>;
  const nameOf = new Map(o.entitlements.map((e) => [e.id, e.name]));
  const ent = (entitlementId: string) => (
    <Link href={`/admin/entitlements/${entitlementId}`}>{nameOf.get(entitlementId) ?? entitlementId}</Link>
  );
  const balanceChoices = o.balances.filter((b) => !b.isUnlimitedCredits);
  const submitGrant = (event: FormEvent) => {
    event.preventDefault();
    const choice = balanceChoices.find((b) => `${b.entitlementId}|${b.metricName}` === grant.entitlementId);
    if (!choice) return;
    deposit.mutate({
      entitlementId: choice.entitlementId,
      metricName: choice.metricName,
      amount: Number(grant.amount),
    });
  };

  return (
    <div data-testid="customer-360">
      <div className="page-head">
        <p className="muted">
          <Link href="/admin/customers">Customers</Link> /{" "}
          {o.customer.kind === "User" ? "User" : "Organization"}
        </p>
        <h1>{o.customer.displayName}</h1>
        <p className="muted">
          {o.customer.email ? <span data-testid="customer-email">{o.customer.email}</span> : null}
          {o.customer.externalReference ? ` · ref ${o.customer.externalReference}` : ""} · origin{" "}
          {o.customer.origin} · since {formatDateTime(o.customer.createdAt)}
          {o.customer.isBlocked ? " · blocked" : ""}
        </p>
        <p>
          <Link href={`/admin/entitlements?customerId=${o.customer.id}`}>Entitlements list</Link> ·{" "}
          <a href={`/admin/export/entitlements?filter=${encodeURIComponent(`customerId==${o.customer.id}`)}`}>
            Export entitlements (CSV)
          </a>
        </p>
      </div>
      {notice ? (
        <div className="alert" role="status" data-testid="customer-notice">
          {notice}
        </div>
      ) : null}
      <ProblemAlert
        problem={problemFrom(reset.error ?? issue.error ?? deposit.error)}
        onDismiss={() => {
          reset.reset();
          issue.reset();
          deposit.reset();
        }}
      />

      <Section title="Entitlements" count={o.entitlements.length}>
        {o.entitlements.length === 0 ? (
          <p className="muted">No entitlement is assigned to this customer.</p>
        ) : (
          <Table
            label="Entitlements"
            head={["Entitlement", "Status", "Plan", "Seats in use", "Expires", "Billing", "Actions"]}
          >
            {o.entitlements.map((e) => (
              <tr key={e.id}>
                <td>{ent(e.id)}</td>
                <td>{e.status}</td>
                <td>{e.planName ?? <span className="muted">none</span>}</td>
                <td>
                  <Link href={`/admin/sessions?entitlementId=${e.id}&state=`}>
                    {e.activeSessions} of {e.seats}
                  </Link>
                  {e.transferCount ? <span className="muted small"> · {e.transferCount} resets</span> : null}
                </td>
                <td>{e.expirationDateTime ? formatDateTime(e.expirationDateTime) : "never"}</td>
                <td>
                  {e.billing ? (
                    <>
                      {e.billing.state} <span className="muted small">{e.billing.mode}</span>
                      {e.billing.amount ? (
                        <span className="muted small">
                          {" "}
                          · {e.billing.amount} {e.billing.currency ?? ""} {e.billing.interval}
                        </span>
                      ) : null}
                    </>
                  ) : (
                    <span className="muted">none</span>
                  )}
                </td>
                <td className="row-actions">
                  <button
                    type="button"
                    className="btn btn-small"
                    onClick={() => setResetting({ id: e.id, name: e.name })}
                  >
                    Reset devices
                  </button>
                  <button
                    type="button"
                    className="btn btn-small"
                    disabled={issue.isPending || e.status !== "Published"}
                    onClick={() => issue.mutate({ entitlementId: e.id, count: 1 })}
                  >
                    Issue code
                  </button>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Section>

      <div className="dash-columns">
        <Section title="Activation codes" count={o.activationCodes.length}>
          <Table label="Activation codes" head={["Code", "Entitlement", "Status", "Issued"]}>
            {o.activationCodes.map((c) => (
              <tr key={c.id}>
                <td className="mono">{c.code}</td>
                <td>{ent(c.entitlementId)}</td>
                <td>{c.status}</td>
                <td>{formatDateTime(c.createdAt)}</td>
              </tr>
            ))}
          </Table>
        </Section>
        <Section title="Devices" count={o.devices.length}>
          <Table label="Devices" head={["Device", "Entitlement", "Fingerprint", "Last seen"]}>
            {o.devices.map((d) => (
              <tr key={d.id}>
                <td>
                  {d.deviceName ?? <span className="muted">unnamed</span>}
                  {d.isBlocked ? <span className="badge badge-danger">blocked</span> : null}
                </td>
                <td>{ent(d.entitlementId)}</td>
                <td className="mono small">{d.fingerprintHash.slice(0, 12)}…</td>
                <td>{d.lastSeenAt ? formatDateTime(d.lastSeenAt) : ""}</td>
              </tr>
            ))}
          </Table>
        </Section>
      </div>

      <Section title="Sessions" count={o.sessions.length}>
        <Table label="Sessions" head={["Device", "Entitlement", "Activated", "State"]}>
          {o.sessions.map((s) => (
            <tr key={s.id}>
              <td>{s.deviceName ?? <span className="muted">unnamed</span>}</td>
              <td>{ent(s.entitlementId)}</td>
              <td>{formatDateTime(s.activatedAt)}</td>
              <td>
                {s.isActive ? (
                  <span className="badge badge-ok">Active</span>
                ) : (
                  <span
                    className="badge badge-muted"
                    title={s.revokedAt ? formatDateTime(s.revokedAt) : undefined}
                  >
                    {s.revocationReason === "None" ? "Lapsed" : s.revocationReason}
                  </span>
                )}
              </td>
            </tr>
          ))}
        </Table>
      </Section>

      <div className="dash-columns">
        <Section title="Usage and balances">
          {o.meters.length === 0 && o.balances.length === 0 ? (
            <p className="muted">No meters or credit balances.</p>
          ) : (
            <Table label="Usage and balances" head={["Metric", "Entitlement", "Usage / credits"]}>
              {o.meters.map((m) => (
                <tr key={`m:${m.entitlementId}:${m.metricName}:${m.periodEnd}`}>
                  <td>
                    <code>{m.metricName}</code>
                  </td>
                  <td>{ent(m.entitlementId)}</td>
                  <td>
                    {formatQuantity(m.usage)}
                    {m.periodEnd ? (
                      <span className="muted small"> until {formatDateTime(m.periodEnd)}</span>
                    ) : null}
                  </td>
                </tr>
              ))}
              {o.balances.map((b) => (
                <tr key={`b:${b.entitlementId}:${b.metricName}`}>
                  <td>
                    <code>{b.metricName}</code> <span className="muted small">balance</span>
                  </td>
                  <td>{ent(b.entitlementId)}</td>
                  <td data-testid={`balance-${b.metricName}`}>
                    {b.isUnlimitedCredits
                      ? "unlimited"
                      : `${formatQuantity(b.creditsUsed)} used of ${formatQuantity(b.totalCredits)}`}
                  </td>
                </tr>
              ))}
            </Table>
          )}
          {balanceChoices.length > 0 ? (
            <form className="toolbar" onSubmit={submitGrant}>
              <select
                aria-label="Balance to credit"
                value={grant.entitlementId}
                onChange={(e) => setGrant((g) => ({ ...g, entitlementId: e.target.value }))}
              >
                <option value="">Balance…</option>
                {balanceChoices.map((b) => (
                  <option
                    key={`${b.entitlementId}|${b.metricName}`}
                    value={`${b.entitlementId}|${b.metricName}`}
                  >
                    {b.metricName} · {nameOf.get(b.entitlementId)}
                  </option>
                ))}
              </select>
              <input
                aria-label="Credits to grant"
                inputMode="decimal"
                placeholder="Credits"
                value={grant.amount}
                onChange={(e) => setGrant((g) => ({ ...g, amount: e.target.value }))}
              />
              <button
                type="submit"
                className="btn btn-small btn-primary"
                disabled={deposit.isPending || !grant.entitlementId || !(Number(grant.amount) > 0)}
              >
                Grant credits
              </button>
            </form>
          ) : null}
        </Section>
        <CustomerGrants grants={o.grants} entitlementName={(id) => ent(id)} />
        <Section title="Plan history" count={o.planHistory.length}>
          {o.planHistory.length === 0 ? (
            <p className="muted">No plan changes.</p>
          ) : (
            <Table label="Plan history" head={["When", "Entitlement", "Change", "Source"]}>
              {o.planHistory.map((h) => (
                <tr key={`${h.entitlementId}:${h.changedAt}`}>
                  <td>{formatDateTime(h.changedAt)}</td>
                  <td>{ent(h.entitlementId)}</td>
                  <td>
                    {h.previousPlanName ?? "none"} → {h.newPlanName}
                  </td>
                  <td>{h.source}</td>
                </tr>
              ))}
            </Table>
          )}
        </Section>
      </div>

      <div className="dash-columns">
        <Section title="Events" count={o.events.length}>
          <Table label="Events" head={["When", "Type"]}>
            {o.events.map((e) => (
              <tr key={e.id}>
                <td>{formatDateTime(e.time)}</td>
                <td>
                  <code>{e.type}</code>
                </td>
              </tr>
            ))}
          </Table>
        </Section>
        <Section title="Webhook deliveries" count={o.deliveries.length}>
          <Table label="Webhook deliveries" head={["When", "Event", "Status", "Attempts"]}>
            {o.deliveries.map((d) => (
              <tr key={d.id}>
                <td>{formatDateTime(d.createdAt)}</td>
                <td>
                  <code>{d.eventType}</code>
                </td>
                <td>
                  {d.status}
                  {d.lastResponseStatus ? (
                    <span className="muted small"> · HTTP {d.lastResponseStatus}</span>
                  ) : null}
                </td>
                <td>{d.attemptCount}</td>
              </tr>
            ))}
          </Table>
        </Section>
      </div>

      {seesHistory ? (
        <Section title="History">
          <AuditHistory entityId={o.customer.id} />
        </Section>
      ) : null}

      <ConfirmDialog
        open={resetting !== null}
        title="Reset devices"
        confirmLabel="Reset devices"
        danger
        busy={reset.isPending}
        problem={problemFrom(reset.error)}
        onConfirm={() => resetting && reset.mutate({ entitlementId: resetting.id })}
        onCancel={() => setResetting(null)}
      >
        <p>
          End every session of <strong>{resetting?.name}</strong> and free its seats? The devices can activate
          again; the entitlement&apos;s transfer count goes up by one.
        </p>
      </ConfirmDialog>
    </div>
  );
}
