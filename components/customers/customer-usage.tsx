"use client";

import type { ReactNode } from "react";
import type { TCustomerOverview } from "@/server/domain/operations/customer-overview";
import { formatDateTime, formatQuantity } from "../ui/format";
import { CustomerCreditGrant } from "./customer-credit-grant";
import { Section, Table } from "./customer-sections";

/** The customer's meters and credit balances, and the grant of credits to a limited balance. */
export function CustomerUsage({
  overview: o,
  entitlementName: ent,
  onDone,
}: {
  overview: Pick<TCustomerOverview, "meters" | "balances" | "entitlements">;
  entitlementName: (id: string) => ReactNode;
  onDone: (notice: string) => Promise<void>;
}) {
  const balanceChoices = o.balances.filter((b) => !b.isUnlimitedCredits);
  return (
    <Section title="Usage and balances">
      {o.meters.length === 0 && o.balances.length === 0 ? (
        <p className="muted">No meters or credit balances.</p>
      ) : (
        <Table
          label="Usage and balances"
          head={["Metric", "Entitlement", "Usage / credits"]}
          empty="No meters or credit balances yet."
        >
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
        <CustomerCreditGrant
          balances={balanceChoices}
          entitlementNames={new Map(o.entitlements.map((e) => [e.id, e.name]))}
          onDone={onDone}
        />
      ) : null}
    </Section>
  );
}
