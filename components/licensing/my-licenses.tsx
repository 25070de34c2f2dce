"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { TConsumerLicense } from "@/server/domain/entitlements/consumer/list-consumer-licenses";
import { useTRPC } from "../shell/trpc-provider";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDate } from "../ui/format";
import { ConsumerPlansList } from "./consumer-plans-list";
import { portalItem, portalLine, portalList } from "./portal-list";

function LicensePlans({ entitlementId }: { entitlementId: string }) {
  const trpc = useTRPC();
  const plans = useQuery(trpc.sessions.myLicensePlans.queryOptions({ entitlementId }));
  if (plans.error) return <ProblemAlert problem={problemFrom(plans.error)} />;
  return plans.data ? <ConsumerPlansList plans={plans.data} /> : <p className="muted small">Loading…</p>;
}

function License({ license }: { license: TConsumerLicense }) {
  const [showPlans, setShowPlans] = useState(false);
  const validity = license.expirationDateTime
    ? `valid until ${formatDate(license.expirationDateTime)}`
    : "no expiry date";
  return (
    <li style={portalItem} data-testid="my-license">
      <div style={portalLine}>
        <strong>{license.name}</strong>
        {license.isTrial ? <span className="badge">Trial</span> : null}
        {license.status !== "Published" ? <span className="badge badge-muted">{license.status}</span> : null}
      </div>
      {license.description ? <div className="muted small">{license.description}</div> : null}
      <div className="small">
        {license.seatsInUse} of {license.numberOfSeats} seat{license.numberOfSeats === 1 ? "" : "s"} in use ·{" "}
        {validity}
        {license.planName ? ` · plan ${license.planName}` : ""}
      </div>
      {license.products.length ? (
        <div className="chips small">
          {license.products.map((p) => (
            <span key={p.id} className="chip">
              {p.name}
            </span>
          ))}
        </div>
      ) : null}
      <div style={portalLine}>
        <button
          type="button"
          className="btn btn-ghost btn-small"
          aria-expanded={showPlans}
          onClick={() => setShowPlans(!showPlans)}
        >
          {showPlans ? "Hide plans" : "Plans"}
        </button>
      </div>
      {showPlans ? <LicensePlans entitlementId={license.entitlementId} /> : null}
    </li>
  );
}

/** Portal: the licenses assigned to the signed-in user or their organisation, with the plans behind each. */
export function MyLicenses() {
  const trpc = useTRPC();
  const licenses = useQuery(trpc.sessions.myLicenses.queryOptions());
  if (licenses.error) return <ProblemAlert problem={problemFrom(licenses.error)} />;
  if (!licenses.data) return <p className="muted">Loading…</p>;
  if (licenses.data.length === 0)
    return (
      <p className="muted" data-testid="no-licenses">
        No license has been assigned to you yet.
      </p>
    );
  return (
    <ul style={portalList} data-testid="my-licenses">
      {licenses.data.map((l) => (
        <License key={l.entitlementId} license={l} />
      ))}
    </ul>
  );
}
