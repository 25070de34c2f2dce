"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../shell/trpc-provider";
import { Field } from "../ui/field";
import { useDebounced } from "../ui/use-debounced";
import { BalancePanel } from "./balance-panel";
import { MetersPanel } from "./meters-panel";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The meters page: find an entitlement by name (or paste its id), then its meters and balances. */
export function EntitlementMetersLookup({ initialEntitlementId }: { initialEntitlementId?: string }) {
  const trpc = useTRPC();
  const [value, setValue] = useState(initialEntitlementId ?? "");
  const [picked, setPicked] = useState(initialEntitlementId ?? "");
  const search = useDebounced(value.trim(), 250);
  const entitlementId = UUID.test(picked.trim())
    ? picked.trim().toLowerCase()
    : UUID.test(value.trim())
      ? value.trim().toLowerCase()
      : "";
  const matches = useQuery({
    ...trpc.entitlements.list.queryOptions({
      pageSize: 8,
      filter: `name@=*${search.replace(/[,|\\]/g, "\\$&")}`,
    }),
    enabled: search.length > 0 && !UUID.test(search),
  });
  return (
    <>
      <div className="panel form">
        <Field
          label="Entitlement"
          htmlFor="meters-entitlement"
          hint="Type a name, or paste an entitlement id."
        >
          <input
            id="meters-entitlement"
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              setPicked("");
            }}
            placeholder="name or uuid"
            autoComplete="off"
          />
        </Field>
        {matches.data && !entitlementId ? (
          <ul className="small" style={{ margin: 0, paddingLeft: "1.2rem" }}>
            {matches.data.items.map((e) => (
              <li key={e.id}>
                <button type="button" className="link-button" onClick={() => setPicked(e.id)}>
                  {e.name}
                </button>
              </li>
            ))}
          </ul>
        ) : null}
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
