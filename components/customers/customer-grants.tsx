import type { ReactNode } from "react";
import type { TCustomerOverview } from "@/server/domain/operations/customer-overview";
import { formatDateTime, formatQuantity } from "../ui/format";
import { Section, Table } from "./customer-sections";

/** Who added the credits, as staff read it: the customer by name, or the staff member or client. */
function grantedBy(g: TCustomerOverview["grants"][number]): string {
  const who = g.actorLabel ?? "unknown";
  return g.operation === "ConsumerGrant" ? `${who} (customer)` : who;
}

/**
 * The credits added to this customer's balances, newest first: staff deposits and the customer's
 * own grants, each with who made it (docs/decisions.md "Consumer credit grant limits").
 */
export function CustomerGrants({
  grants,
  entitlementName,
}: {
  grants: TCustomerOverview["grants"];
  entitlementName: (id: string) => ReactNode;
}) {
  return (
    <Section title="Credit grants" count={grants.length}>
      {grants.length === 0 ? (
        <p className="muted">No credits added yet.</p>
      ) : (
        <Table
          label="Credit grants"
          head={["When", "Entitlement", "Credits", "By"]}
          empty="No credits added yet."
        >
          {grants.map((g) => (
            <tr key={`${g.entitlementId}:${g.metricName}:${g.createdAt}:${g.amount}`}>
              <td>{formatDateTime(g.createdAt)}</td>
              <td>{entitlementName(g.entitlementId)}</td>
              <td>
                {formatQuantity(g.amount)} <span className="muted small">{g.metricName}</span>
              </td>
              <td>{grantedBy(g)}</td>
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}
