"use client";

import { useMutation } from "@tanstack/react-query";
import {
  ZBalanceAmountRequest,
  type TBalanceAmountRequest,
} from "@/server/domain/metering/balances/balance-mutation.schemas";
import type { TCustomerOverview } from "@/server/domain/operations/customer-overview";
import { useTRPC } from "../shell/trpc-provider";
import { Form, NumberField, SelectField, useSchemaForm } from "../ui/form";
import { formatQuantity } from "../ui/format";

type Values = { balance: string; amount: number | null };

/** Staff add credits to one of the customer's limited balances (a deposit, as on the entitlement page). */
export function CustomerCreditGrant({
  balances,
  entitlementNames,
  onDone,
}: {
  balances: TCustomerOverview["balances"];
  entitlementNames: Map<string, string>;
  onDone: (notice: string) => Promise<void>;
}) {
  const trpc = useTRPC();
  const form = useSchemaForm<Values, TBalanceAmountRequest>(ZBalanceAmountRequest, {
    defaultValues: { balance: "", amount: null },
  });
  const chosen = form.watch("balance");
  const amount = form.watch("amount");
  const deposit = useMutation(
    trpc.balances.deposit.mutationOptions({
      onSuccess: async (_, input) => {
        form.setValue("amount", null);
        await onDone(`Granted ${formatQuantity(input.amount)} credits on ${input.metricName}.`);
      },
      onError: form.showProblem,
    }),
  );
  const key = (b: TCustomerOverview["balances"][number]) => `${b.entitlementId}|${b.metricName}`;
  function submit({ amount }: TBalanceAmountRequest) {
    const choice = balances.find((b) => key(b) === chosen);
    if (!choice) return;
    deposit.mutate({ entitlementId: choice.entitlementId, metricName: choice.metricName, amount });
  }
  return (
    <Form form={form} id="customer-grant" className="toolbar" label="Grant credits" onSubmit={submit}>
      <SelectField
        name="balance"
        label="Balance to credit"
        emptyLabel="Balance…"
        options={balances.map((b) => ({
          value: key(b),
          label: `${b.metricName} · ${entitlementNames.get(b.entitlementId) ?? ""}`,
        }))}
      />
      <NumberField name="amount" label="Credits to grant" unit="credits" emptyAs={null} />
      <button
        type="submit"
        className="btn btn-small btn-primary"
        disabled={deposit.isPending || !chosen || !(Number(amount) > 0)}
      >
        Grant credits
      </button>
    </Form>
  );
}
