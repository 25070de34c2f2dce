import type { ReactNode } from "react";
import type { TCustomerOverview } from "@/server/domain/operations/customer-overview";
import { eventTypeLabel } from "@/server/domain/webhooks/events/event-sentences";
import { formatDateTime } from "../ui/format";
import { wordsOf } from "../ui/enum-labels";
import { Section, Table } from "./customer-sections";

/** The customer's plan changes. */
export function CustomerPlanHistory({
  planHistory,
  entitlementName: ent,
}: {
  planHistory: TCustomerOverview["planHistory"];
  entitlementName: (id: string) => ReactNode;
}) {
  return (
    <Section title="Plan history" count={planHistory.length}>
      {planHistory.length === 0 ? (
        <p className="muted">No plan changes.</p>
      ) : (
        <Table
          label="Plan history"
          head={["When", "Entitlement", "Change", "Source"]}
          empty="No plan changes yet."
        >
          {planHistory.map((h) => (
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
  );
}

/** The events about the customer's records and the webhook deliveries they caused. */
export function CustomerEvents({
  overview: o,
}: {
  overview: Pick<TCustomerOverview, "events" | "deliveries">;
}) {
  return (
    <div className="dash-columns">
      <Section title="Events" count={o.events.length}>
        <Table label="Events" head={["When", "What"]} empty="No events yet.">
          {o.events.map((e) => (
            <tr key={e.id}>
              <td>{formatDateTime(e.time)}</td>
              <td>{eventTypeLabel(e.type)}</td>
            </tr>
          ))}
        </Table>
      </Section>
      <Section title="Webhook deliveries" count={o.deliveries.length}>
        <Table
          label="Webhook deliveries"
          head={["When", "Event", "Status", "Attempts"]}
          empty="No webhook deliveries yet."
        >
          {o.deliveries.map((d) => (
            <tr key={d.id}>
              <td>{formatDateTime(d.createdAt)}</td>
              <td>{eventTypeLabel(d.eventType)}</td>
              <td>
                {wordsOf(d.status)}
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
  );
}
