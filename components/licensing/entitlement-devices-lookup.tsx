"use client";

import { useState } from "react";
import { Field } from "../ui/field";
import { BalancePanel } from "../metering/balance-panel";
import { DevicesPanel } from "./devices-panel";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The standalone devices page: pick an entitlement by id, then its devices and balances. */
export function EntitlementDevicesLookup({ initialEntitlementId }: { initialEntitlementId?: string }) {
  const [value, setValue] = useState(initialEntitlementId ?? "");
  const entitlementId = UUID.test(value.trim()) ? value.trim().toLowerCase() : "";
  return (
    <>
      <div className="panel form">
        <Field label="Entitlement id" htmlFor="devices-entitlement">
          <input
            id="devices-entitlement"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            placeholder="uuid"
            autoComplete="off"
          />
        </Field>
      </div>
      {entitlementId ? (
        <>
          <p>
            <a href={`/admin/entitlements/${entitlementId}`}>Open the entitlement</a>
          </p>
          <h2>Devices</h2>
          <DevicesPanel key={`d-${entitlementId}`} entitlementId={entitlementId} />
          <h2>Balances</h2>
          <BalancePanel key={`b-${entitlementId}`} entitlementId={entitlementId} />
        </>
      ) : null}
    </>
  );
}
