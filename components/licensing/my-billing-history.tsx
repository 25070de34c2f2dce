"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../shell/trpc-provider";
import { Pager } from "../ui/data-table";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDate, formatMoney } from "../ui/format";

/** How a plan period began, in the customer's words. */
const sourceText: Record<string, string> = {
  Issued: "License issued",
  ManualAdminAction: "Changed by your vendor",
  ApprovedPlanChangeRequest: "Your request, approved",
};

/** Portal: one license's billing record and its plans over time (period, plan, price, how it began). */
export function MyBillingHistory({ entitlementId }: { entitlementId: string }) {
  const trpc = useTRPC();
  const [pageNumber, setPageNumber] = useState(1);
  const history = useQuery({
    ...trpc.sessions.myBillingHistory.queryOptions({ entitlementId, pageNumber, pageSize: 10 }),
    placeholderData: keepPreviousData,
  });
  if (history.error) return <ProblemAlert problem={problemFrom(history.error)} />;
  if (!history.data) return <p className="muted small">Loading…</p>;
  const { billing, periods } = history.data;
  return (
    <div data-testid="billing-history" className="small">
      <p>
        Billing: {billing.method === "Unspecified" ? "not set" : billing.method.toLowerCase()}
        {billing.interval !== "Unspecified" ? `, every ${billing.interval.toLowerCase()}` : ""}
        {billing.amount !== null ? ` · ${formatMoney(billing.amount, billing.currency)}` : ""}
        {billing.state !== "None" ? ` · ${billing.state}` : ""}
        {billing.currentPeriodEnd ? ` · current period ends ${formatDate(billing.currentPeriodEnd)}` : ""}
      </p>
      <div className="table-wrap">
        <table className="table small">
          <caption className="muted">Plans over time</caption>
          <thead>
            <tr>
              <th scope="col">Period</th>
              <th scope="col">Plan</th>
              <th scope="col">Price</th>
              <th scope="col">How it began</th>
            </tr>
          </thead>
          <tbody>
            {periods.items.length === 0 ? (
              <tr>
                <td colSpan={4} className="muted">
                  No plan has been assigned to this license.
                </td>
              </tr>
            ) : (
              periods.items.map((p) => (
                <tr key={p.id} data-testid="plan-period">
                  <td>
                    {formatDate(p.periodStart)} – {p.periodEnd ? formatDate(p.periodEnd) : "now"}
                  </td>
                  <td>
                    {p.planName}
                    {p.previousPlanName ? <span className="muted"> (from {p.previousPlanName})</span> : null}
                  </td>
                  <td>
                    {p.monthlyPrice === null
                      ? "Price on request"
                      : formatMoney(p.monthlyPrice, p.currency, { per: "month" })}
                  </td>
                  <td>{sourceText[p.source] ?? p.source}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {periods.totalPages > 1 ? <Pager page={periods} onPage={setPageNumber} /> : null}
    </div>
  );
}
