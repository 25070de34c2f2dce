import type { ReactNode } from "react";
import type { TCustomerOverview } from "@/server/domain/operations/customer-overview";
import { formatDateTime } from "../ui/format";
import { wordsOf } from "../ui/enum-labels";
import { Section, Table } from "./customer-sections";

type Props = {
  overview: Pick<TCustomerOverview, "activationCodes" | "devices" | "sessions">;
  entitlementName: (id: string) => ReactNode;
};

/** Where the customer's licenses run: the codes issued to them, their devices and their sessions. */
export function CustomerDevices({ overview: o, entitlementName: ent }: Props) {
  return (
    <>
      <div className="dash-columns">
        <Section title="Activation codes" count={o.activationCodes.length}>
          <Table
            label="Activation codes"
            head={["Code", "Entitlement", "Status", "Issued"]}
            empty="No activation codes yet."
          >
            {o.activationCodes.map((c) => (
              <tr key={c.id}>
                <td className="mono">{c.code}</td>
                <td>{ent(c.entitlementId)}</td>
                <td>{c.status}</td>
                <td>{formatDateTime(c.createdAt)}</td>
              </tr>
            ))}
          </Table>
        </Section>
        <Section title="Devices" count={o.devices.length}>
          <Table
            label="Devices"
            head={["Device", "Entitlement", "Fingerprint", "Last seen"]}
            empty="No devices yet."
          >
            {o.devices.map((d) => (
              <tr key={d.id}>
                <td>
                  {d.deviceName ?? <span className="muted">unnamed</span>}
                  {d.isBlocked ? <span className="badge badge-danger">blocked</span> : null}
                </td>
                <td>{ent(d.entitlementId)}</td>
                <td className="mono small">{d.fingerprintHash.slice(0, 12)}…</td>
                <td>{d.lastSeenAt ? formatDateTime(d.lastSeenAt) : ""}</td>
              </tr>
            ))}
          </Table>
        </Section>
      </div>

      <Section title="Sessions" count={o.sessions.length}>
        <Table
          label="Sessions"
          head={["Device", "Entitlement", "Activated", "State"]}
          empty="No sessions yet."
        >
          {o.sessions.map((s) => (
            <tr key={s.id}>
              <td>{s.deviceName ?? <span className="muted">unnamed</span>}</td>
              <td>{ent(s.entitlementId)}</td>
              <td>{formatDateTime(s.activatedAt)}</td>
              <td>
                {s.isActive ? (
                  <span className="badge badge-ok">Active</span>
                ) : (
                  <span
                    className="badge badge-muted"
                    title={s.revokedAt ? formatDateTime(s.revokedAt) : undefined}
                  >
                    {s.revocationReason === "None" ? "Lapsed" : wordsOf(s.revocationReason)}
                  </span>
                )}
              </td>
            </tr>
          ))}
        </Table>
      </Section>
    </>
  );
}
