"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { TEntitlementResponse } from "@/server/domain/entitlements/entitlement/entitlement.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { CustomerPicker } from "./pickers";

/** Who the entitlement is assigned to: a customer user or organization, or nobody. */
export function EntitlementCustomer({ entitlement }: { entitlement: TEntitlementResponse }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [customerId, setCustomerId] = useState(entitlement.customerId ?? "");
  const save = useMutation(
    trpc.entitlements.update.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() }),
    }),
  );
  return (
    <section className="panel" aria-labelledby="customer-heading">
      <div className="panel-head">
        <h2 id="customer-heading">Customer</h2>
        <span className="muted">{entitlement.customerKind ?? "unassigned"}</span>
      </div>
      <ProblemAlert problem={problemFrom(save.error)} onDismiss={() => save.reset()} />
      {entitlement.status === "Archived" ? null : (
        <div className="toolbar">
          <CustomerPicker label="Assigned customer" value={customerId} onChange={setCustomerId} />
          <button
            type="button"
            className="btn btn-small"
            disabled={save.isPending || customerId === (entitlement.customerId ?? "")}
            onClick={() =>
              save.mutate({ id: entitlement.id, edit: customerId ? { customerId } : { clearCustomer: true } })
            }
          >
            Assign
          </button>
        </div>
      )}
    </section>
  );
}
