"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../shell/trpc-provider";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { MeterDetails } from "./meter-details";
import { SeverityBadge } from "./severity-badge";

/**
 * Back office: an entitlement's meters and balances (usage in the current period, overage status,
 * tiers), the chosen meter's usage per period or balance over time, and the auto-balance schedule.
 */
export function MetersPanel({ entitlementId }: { entitlementId: string }) {
  const trpc = useTRPC();
  const meters = useQuery(trpc.meters.list.queryOptions({ entitlementId }));
  const [chosen, setChosen] = useState("");
  const meter = meters.data?.find((m) => m.metricName === chosen) ?? meters.data?.[0];
  const history = useQuery({
    ...trpc.meters.history.queryOptions({ entitlementId, metricName: meter?.metricName ?? "" }),
    enabled: Boolean(meter && meter.usageKind !== "Balance"),
  });
  const balanceHistory = useQuery({
    ...trpc.balances.history.queryOptions({ entitlementId, metricName: meter?.metricName ?? "" }),
    enabled: Boolean(meter?.balance),
  });
  if (meters.error) return <ProblemAlert problem={problemFrom(meters.error)} />;
  if (!meters.data) return <p className="muted">Loading…</p>;
  if (meters.data.length === 0) return <p className="muted">This entitlement tracks no metric.</p>;
  return (
    <div style={{ display: "grid", gap: "1rem" }} data-testid="meters-panel">
      <div className="table-wrap">
        <table className="table" aria-label="Meters">
          <thead>
            <tr>
              <th>Metric</th>
              <th>Kind</th>
              <th>Current period</th>
              <th>Usage</th>
              <th>Remaining</th>
              <th>Severity</th>
            </tr>
          </thead>
          <tbody>
            {meters.data.map((m) => (
              <tr
                key={m.metricName}
                aria-selected={m.metricName === meter?.metricName}
                data-testid="meter-row"
              >
                <td>
                  <button type="button" className="link-button mono" onClick={() => setChosen(m.metricName)}>
                    {m.metricName}
                  </button>
                </td>
                <td>{m.usageKind}</td>
                <td className="small">
                  {m.current.periodKey === "lifetime" ? "lifetime" : m.current.periodKey.split(":")[0]}
                </td>
                <td>{m.current.usage}</td>
                <td>{m.current.remaining ?? "∞"}</td>
                <td>
                  <SeverityBadge severity={m.current.severity} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {meter ? (
        <section className="panel" aria-label={`Meter ${meter.metricName}`}>
          <h3 style={{ marginTop: 0 }}>{meter.name}</h3>
          <ProblemAlert problem={problemFrom(history.error ?? balanceHistory.error)} />
          <MeterDetails meter={meter} history={history.data} balanceHistory={balanceHistory.data} />
        </section>
      ) : null}
    </div>
  );
}
