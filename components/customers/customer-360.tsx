"use client";

import Link from "next/link";
import { Fragment, useState, type ReactNode } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../shell/trpc-provider";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { CustomerPlanHistory, CustomerEvents } from "./customer-activity";
import { CustomerDevices } from "./customer-devices";
import { CustomerEntitlements } from "./customer-entitlements";
import { CustomerGrants } from "./customer-grants";
import { CustomerUsage } from "./customer-usage";
import { Section } from "./customer-sections";
import { AuditHistory } from "../audit/audit-history";

/** The parts that are there, separated by " · " (an absent part leaves no stray separator). */
function joinPresent(parts: ReactNode[]): ReactNode[] {
  return parts
    .filter((part) => part !== null && part !== undefined && part !== "")
    .flatMap((part, i) => (i === 0 ? [part] : [" · ", part]))
    .map((part, i) => <Fragment key={i}>{part}</Fragment>);
}

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
  const [notice, setNotice] = useState<string | null>(null);
  const done = async (text: string) => {
    setNotice(text);
    await queryClient.invalidateQueries({ queryKey: trpc.operations.customer.pathKey() });
  };

  if (overview.error) return <ProblemAlert problem={problemFrom(overview.error)} />;
  const o = overview.data;
  if (!o) return <p className="muted">Loading…</p>;
  const nameOf = new Map(o.entitlements.map((e) => [e.id, e.name]));
  const ent = (entitlementId: string) => (
    <Link href={`/admin/entitlements/${entitlementId}`}>{nameOf.get(entitlementId) ?? entitlementId}</Link>
  );

  return (
    <div data-testid="customer-360">
      <div className="page-head">
        <p className="muted">
          <Link href="/admin/customers">Customers</Link> /{" "}
          {o.customer.kind === "User" ? "User" : "Organization"}
        </p>
        <h1>{o.customer.displayName}</h1>
        <p className="muted" data-testid="customer-subtitle">
          {joinPresent([
            o.customer.email ? <span data-testid="customer-email">{o.customer.email}</span> : null,
            o.customer.externalReference ? `ref ${o.customer.externalReference}` : null,
            o.customer.origin ? `origin ${o.customer.origin}` : null,
            `since ${formatDateTime(o.customer.createdAt)}`,
            o.customer.isBlocked ? "blocked" : null,
          ])}
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

      <CustomerEntitlements entitlements={o.entitlements} entitlementName={ent} onDone={done} />
      <CustomerDevices overview={o} entitlementName={ent} />
      <div className="dash-columns">
        <CustomerUsage overview={o} entitlementName={ent} onDone={done} />
        <CustomerGrants grants={o.grants} entitlementName={ent} />
        <CustomerPlanHistory planHistory={o.planHistory} entitlementName={ent} />
      </div>
      <CustomerEvents overview={o} />
      {seesHistory ? (
        <Section title="History">
          <AuditHistory entityKind="customer" entityId={o.customer.id} />
        </Section>
      ) : null}
    </div>
  );
}
