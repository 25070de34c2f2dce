"use client";

import type { TEntitlementMeter, TMeterPeriodPoint } from "@/server/domain/metering/meters/meter.schemas";
import { formatDateTime } from "../ui/format";
import { SeverityBadge } from "./severity-badge";
import { UsagePeriodChart } from "./usage-period-chart";
import { BalanceChart } from "./balance-chart";

type BalancePoint = { remainingAfter: number; createdAt: string; operation: string; amount: number };

const periodText = (m: TEntitlementMeter) =>
  m.usageKind !== "Metered"
    ? "lifetime"
    : m.consumptionPeriod
      ? `per ${m.consumptionPeriod} (${m.periodAnchor === "EntitlementStart" ? "from the entitlement's start" : "UTC calendar"})`
      : "lifetime allowance";

/** One meter's figures: what it is, where the current period stands, its tiers, balance and schedule. */
export function MeterDetails({
  meter,
  history,
  balanceHistory,
}: {
  meter: TEntitlementMeter;
  history: TMeterPeriodPoint[] | undefined;
  balanceHistory: BalancePoint[] | undefined;
}) {
  const c = meter.current;
  const balance = meter.balance;
  return (
    <div data-testid="meter-details" style={{ display: "grid", gap: "0.75rem" }}>
      <dl
        className="small"
        style={{ display: "grid", gridTemplateColumns: "max-content 1fr", gap: "0.25rem 1rem", margin: 0 }}
      >
        <dt className="muted">Metric</dt>
        <dd className="mono">
          {meter.metricName} <span className="badge badge-muted">{meter.usageKind}</span>{" "}
          <span className="muted">{meter.metricType}</span>
        </dd>
        <dt className="muted">Period</dt>
        <dd>
          {periodText(meter)}
          {c.periodEnd ? <span className="muted"> · ends {formatDateTime(c.periodEnd)}</span> : null}
        </dd>
        <dt className="muted">Usage</dt>
        <dd data-testid="meter-usage">
          <strong>{c.usage}</strong>
          {c.limit !== null ? ` of ${c.limit}` : ""}
          {c.remaining !== null ? <span className="muted"> · {c.remaining} remaining</span> : null}
          {meter.usageKind === "Metered" ? (
            <span className="muted">
              {" "}
              ({c.consumedUsage} consumed, {c.reportedUsage} uploaded)
            </span>
          ) : null}
        </dd>
        <dt className="muted">Overage</dt>
        <dd>
          <SeverityBadge severity={c.severity} title="Severity of the current usage" />
          {c.tierName ? <span className="muted"> tier {c.tierName}</span> : null}
          <span className="muted"> · last reported </span>
          <SeverityBadge severity={meter.lastReportedSeverity} title="lastReportedOverageSeverityStatus" />
          {c.creditsCharged ? (
            <span className="muted"> · {c.creditsCharged} credits charged this period</span>
          ) : null}
        </dd>
        {meter.suspendedUntilAt ? (
          <>
            <dt className="muted">Suspended until</dt>
            <dd>{formatDateTime(meter.suspendedUntilAt)}</dd>
          </>
        ) : null}
        {meter.featureCode ? (
          <>
            <dt className="muted">Feature</dt>
            <dd className="mono">
              {meter.featureCode}
              {meter.featureEnabled ? "" : " (disabled)"}
            </dd>
          </>
        ) : null}
      </dl>
      {meter.tiers.length ? (
        <div className="table-wrap">
          <table className="table table-compact" aria-label="Tiers">
            <thead>
              <tr>
                <th>Tier</th>
                <th>From</th>
                <th>To</th>
                <th>Policy</th>
                <th>Severity</th>
                <th>Price</th>
              </tr>
            </thead>
            <tbody>
              {meter.tiers.map((t) => (
                <tr key={t.name} aria-current={t.name === c.tierName ? "true" : undefined}>
                  <td>{t.name === c.tierName ? <strong>{t.name}</strong> : t.name}</td>
                  <td>{t.start}</td>
                  <td>{t.end ?? "∞"}</td>
                  <td>{t.quotaUsagePolicy}</td>
                  <td>
                    <SeverityBadge severity={t.severity} />
                  </td>
                  <td className="small">
                    {t.quotaUsagePolicy === "AllowWithOverage"
                      ? `${t.baseCredits} + ${t.creditsPerUnitOfConsumption}/unit${t.fundingBalanceMetric ? ` → ${t.fundingBalanceMetric}` : " (reported)"}`
                      : "—"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {meter.usageKind !== "Balance" ? (
        <div>
          <h4 style={{ margin: "0 0 0.25rem" }}>Usage per period</h4>
          {history ? (
            <UsagePeriodChart
              points={history}
              limit={c.limit}
              label={`Usage of ${meter.metricName} per period`}
            />
          ) : (
            <p className="muted small">Loading…</p>
          )}
        </div>
      ) : null}
      {balance ? (
        <div data-testid="meter-balance">
          <h4 style={{ margin: "0 0 0.25rem" }}>Balance</h4>
          <p className="small" style={{ margin: 0 }}>
            {balance.isUnlimitedCredits ? (
              "Unlimited credits"
            ) : (
              <>
                <strong data-testid="remaining-credits">{balance.remainingCredits}</strong> of{" "}
                {balance.totalCredits} credits remaining
              </>
            )}
            <span className="muted">
              {" "}
              · {balance.cumulativeCreditsUsed} used in all · {balance.unfundedCredits} unfunded
              {balance.lastUnfundedAt ? ` (last ${formatDateTime(balance.lastUnfundedAt)})` : ""} · initial{" "}
              {balance.initialCreditAmount}
            </span>
          </p>
          {balanceHistory ? <BalanceChart points={balanceHistory} /> : null}
        </div>
      ) : null}
      {balance?.autoBalanceCronSchedule ? (
        <div data-testid="auto-balance-preview">
          <h4 style={{ margin: "0 0 0.25rem" }}>
            Auto-balance <span className="mono small">{balance.autoBalanceCronSchedule}</span> (UTC)
          </h4>
          <p className="small muted" style={{ margin: 0 }}>
            Last run {formatDateTime(balance.lastAutoBalanceDate)}. Next runs:
          </p>
          <ol className="small" style={{ margin: "0.25rem 0 0" }}>
            {meter.autoBalancePreview.map((at) => (
              <li key={at}>
                <time dateTime={at}>{formatDateTime(at)}</time>
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </div>
  );
}
