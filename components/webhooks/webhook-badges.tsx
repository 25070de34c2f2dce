import Link from "next/link";
import type { TSubscriptionResponse } from "@/server/domain/webhooks/subscriptions/subscription.schemas";

const stateLabels: Record<TSubscriptionResponse["state"], string> = {
  PendingVerification: "Pending verification",
  Active: "Active",
  Disabled: "Disabled",
  Suspended: "Suspended",
};

export function StateBadge({ state }: { state: TSubscriptionResponse["state"] }) {
  const tone = state === "Active" ? " badge-ok" : state === "Disabled" ? " badge-muted" : "";
  return (
    <span className={`badge state-${state}${tone}`} data-testid="subscription-state">
      {stateLabels[state]}
    </span>
  );
}

export function DeliveryStatus({ status }: { status: string }) {
  return (
    <span className={`badge delivery-${status}`} data-testid="delivery-status">
      {status}
    </span>
  );
}

export function Patterns({ patterns }: { patterns: string[] }) {
  if (patterns.includes("*")) return <span className="badge">all event types</span>;
  return (
    <span className="scope-list">
      {patterns.slice(0, 3).map((p) => (
        <code key={p}>{p}</code>
      ))}
      {patterns.length > 3 ? (
        <span className="muted small" title={patterns.join("\n")}>
          +{patterns.length - 3} more
        </span>
      ) : null}
    </span>
  );
}

/** The tabs of the webhook area. */
export function WebhooksSubnav({ current }: { current: "subscriptions" | "deliveries" | "dead-letters" }) {
  const tabs = [
    ["subscriptions", "/admin/webhooks", "Subscriptions"],
    ["deliveries", "/admin/webhooks/deliveries", "Delivery history"],
    ["dead-letters", "/admin/webhooks/dead-letters", "Dead letters"],
  ] as const;
  return (
    <nav className="subnav" aria-label="Webhooks">
      {tabs.map(([key, href, label]) => (
        <Link key={key} href={href} aria-current={key === current ? "page" : undefined}>
          {label}
        </Link>
      ))}
    </nav>
  );
}
