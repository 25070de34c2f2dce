"use client";

import type { z } from "zod";
import type { ZConsumerPlansResponse } from "@/server/domain/entitlements/plans/consumer-plans";
import { formatDate, formatMoney, formatQuantity } from "../ui/format";

export type ConsumerPlans = z.infer<typeof ZConsumerPlansResponse>;
type Plan = ConsumerPlans["plans"][number];
/** What the comparison shows of a plan: a license's plans, or a plan set's in the staff's preview. */
export type ComparedPlan = Pick<Plan, "name" | "monthlyPrice" | "currency" | "isCurrent" | "features">;
export type ComparedPlans<P extends ComparedPlan = ComparedPlan> = {
  planName: string | null;
  plans: P[];
  pendingPlanChangeRequest?: ConsumerPlans["pendingPlanChangeRequest"];
  recentPlanChangeRequests?: ConsumerPlans["recentPlanChangeRequests"];
};

/** A plan's price for a customer: "EUR 49 per month", "Free", or "Price on request" when unpriced. */
export const planPrice = (p: Pick<Plan, "monthlyPrice" | "currency">) => {
  if (p.monthlyPrice === null) return "Price on request";
  if (p.monthlyPrice === 0) return formatMoney(0, p.currency);
  return `${formatMoney(p.monthlyPrice, p.currency)} per month`;
};

const featureValue = (f: Plan["features"][number]) => {
  if (f.value === null) return "Usage-priced";
  if (f.value === "true") return "Included";
  if (f.value === "false") return "Not included";
  return /^-?\d+(\.\d+)?$/.test(f.value) ? formatQuantity(f.value, f.units) : f.value;
};

const outcome: Record<string, string> = {
  Pending: "waiting for review",
  Approved: "approved",
  Rejected: "declined",
};

/**
 * The plans behind a license side by side (price, then each feature's value per plan), the
 * current one marked; `onChoose` offers a change to each other plan. Below: the license's recent
 * plan-change requests and how they ended, with the reviewer's note. The plan-set editor's
 * customer preview shows a set's plans through it, so staff see what customers will.
 */
export function ConsumerPlansList<P extends ComparedPlan>({
  plans,
  onChoose,
  caption = "Plans of this license",
  empty,
}: {
  plans: ComparedPlans<P>;
  onChoose?: (plan: P) => void;
  /** The table's name. */
  caption?: string;
  /** Said instead of the table when there are no plans. */
  empty?: string;
}) {
  if (plans.plans.length === 0) {
    return (
      <p className="muted small" data-testid="plans">
        {empty ?? (plans.planName ? `Plan ${plans.planName}.` : "No plan is attached to this license.")}
      </p>
    );
  }
  const features = [
    ...new Map(
      plans.plans.flatMap((p) => p.features).map((f) => [f.featureCode, f.featureName ?? f.featureCode]),
    ),
  ];
  return (
    <div data-testid="plans">
      <div className="table-wrap">
        <table className="table small">
          <caption className="muted">{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Plan</th>
              {plans.plans.map((p) => (
                <th key={p.name} scope="col">
                  {p.name} {p.isCurrent ? <span className="badge badge-ok">Current</span> : null}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            <tr>
              <th scope="row">Price</th>
              {plans.plans.map((p) => (
                <td key={p.name}>{planPrice(p)}</td>
              ))}
            </tr>
            {features.map(([code, name]) => (
              <tr key={code}>
                <th scope="row">{name}</th>
                {plans.plans.map((p) => {
                  const f = p.features.find((x) => x.featureCode === code);
                  return <td key={p.name}>{f ? featureValue(f) : "—"}</td>;
                })}
              </tr>
            ))}
            {onChoose ? (
              <tr>
                <th scope="row" />
                {plans.plans.map((p) => (
                  <td key={p.name}>
                    {p.isCurrent || plans.pendingPlanChangeRequest ? null : (
                      <button type="button" className="btn btn-small" onClick={() => onChoose(p)}>
                        Choose {p.name}
                      </button>
                    )}
                  </td>
                ))}
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      {plans.recentPlanChangeRequests?.length ? (
        <ul
          className="small"
          style={{ margin: "0.35rem 0", paddingLeft: "1.1rem" }}
          aria-label="Plan-change requests"
        >
          {plans.recentPlanChangeRequests.map((r) => (
            <li key={r.id} data-testid="plan-change-request">
              Change to <strong>{r.requestedPlanName}</strong> requested {formatDate(r.createdAt)}:{" "}
              {outcome[r.status] ?? r.status}
              {r.reviewedAt ? ` ${formatDate(r.reviewedAt)}` : ""}
              {r.reviewNote ? ` — “${r.reviewNote}”` : ""}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
