"use client";

import type { z } from "zod";
import type { ZConsumerPlansResponse } from "@/server/domain/entitlements/plans/consumer-plans";
import { formatDateTime } from "../ui/format";

type Plans = z.infer<typeof ZConsumerPlansResponse>;

const price = (p: Plans["plans"][number]) =>
  p.monthlyPrice === null
    ? p.pricingMode
    : `${p.monthlyPrice.toLocaleString("en-GB", { minimumFractionDigits: 2 })} ${p.currency ?? ""}/month`.trim();

/** The plans behind a license (GET /consumer/me/.../plans), the current one marked. */
export function ConsumerPlansList({ plans }: { plans: Plans }) {
  if (plans.plans.length === 0) {
    return (
      <p className="muted small" data-testid="plans">
        {plans.planName ? `Plan ${plans.planName}.` : "No plan is attached to this license."}
      </p>
    );
  }
  return (
    <div data-testid="plans">
      <ul className="small" style={{ margin: "0.35rem 0", paddingLeft: "1.1rem" }}>
        {plans.plans.map((p) => (
          <li key={p.name}>
            <strong>{p.name}</strong> <span className="muted">· {price(p)}</span>
            {p.isCurrent ? (
              <span className="badge badge-ok" style={{ marginLeft: "0.4rem" }}>
                Current
              </span>
            ) : null}
            {p.description ? <div className="muted">{p.description}</div> : null}
          </li>
        ))}
      </ul>
      {plans.pendingPlanChangeRequest ? (
        <p className="muted small">
          Change to {plans.pendingPlanChangeRequest.requestedPlanName} requested{" "}
          {formatDateTime(plans.pendingPlanChangeRequest.createdAt)}, awaiting review.
        </p>
      ) : null}
    </div>
  );
}
