"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { EntitlementPicker } from "../entitlements/pickers";
import { BalancePanel } from "./balance-panel";
import { MetersPanel } from "./meters-panel";

/** The meters page: pick an entitlement by name, then its meters and balances. */
export function EntitlementMetersLookup({ initialEntitlementId }: { initialEntitlementId?: string }) {
  const router = useRouter();
  const [entitlementId, setEntitlementId] = useState(initialEntitlementId ?? "");
  return (
    <>
      <div className="panel form">
        <EntitlementPicker
          value={entitlementId}
          onChange={(id) => {
            setEntitlementId(id);
            // The choice is in the URL, so a link or a reload shows the same meters.
            router.replace(id ? `/admin/meters?entitlementId=${id}` : "/admin/meters");
          }}
        />
      </div>
      {entitlementId ? (
        <>
          <p>
            <a href={`/admin/entitlements/${entitlementId}`}>Open the entitlement</a>
          </p>
          <h2>Meters</h2>
          <MetersPanel key={`m-${entitlementId}`} entitlementId={entitlementId} />
          <h2>Change a balance</h2>
          <BalancePanel key={`b-${entitlementId}`} entitlementId={entitlementId} />
        </>
      ) : null}
    </>
  );
}
