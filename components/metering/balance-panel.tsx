"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "../shell/trpc-provider";
import { Field } from "../ui/field";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { BalanceChart } from "./balance-chart";

/** An entitlement's credit balances: deposit, withdraw or set, and the balance history chart. */
export function BalancePanel({ entitlementId }: { entitlementId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const metrics = useQuery(trpc.balances.metrics.queryOptions({ entitlementId }));
  const [chosen, setChosen] = useState("");
  const metricName = chosen || metrics.data?.[0] || "";
  const [operation, setOperation] = useState<"deposit" | "withdraw" | "set">("deposit");
  const [amount, setAmount] = useState("");
  const history = useQuery({
    ...trpc.balances.history.queryOptions({ entitlementId, metricName }),
    enabled: Boolean(metricName),
  });
  const onSuccess = async () => {
    setAmount("");
    await queryClient.invalidateQueries({ queryKey: trpc.balances.history.pathKey() });
  };
  const deposit = useMutation(trpc.balances.deposit.mutationOptions({ onSuccess }));
  const withdraw = useMutation(trpc.balances.withdraw.mutationOptions({ onSuccess }));
  const set = useMutation(trpc.balances.set.mutationOptions({ onSuccess }));
  const mutation = operation === "deposit" ? deposit : operation === "withdraw" ? withdraw : set;
  const last = history.data?.at(-1);

  function submit(event: FormEvent) {
    event.preventDefault();
    deposit.reset();
    withdraw.reset();
    set.reset();
    mutation.mutate({ entitlementId, metricName, amount: Number(amount) });
  }

  if (metrics.data && metrics.data.length === 0)
    return <p className="muted">This entitlement holds no credit balance.</p>;
  return (
    <section aria-label="Balances">
      <form className="panel form" onSubmit={submit} aria-label="Change a balance">
        <Field label="Balance" htmlFor="balance-metric">
          <select id="balance-metric" value={metricName} onChange={(e) => setChosen(e.target.value)}>
            {(metrics.data ?? []).map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </Field>
        <Field
          label="Operation"
          htmlFor="balance-operation"
          hint="Deposit adds to what remains; set makes the remaining balance the amount."
        >
          <select
            id="balance-operation"
            value={operation}
            onChange={(e) => setOperation(e.target.value as typeof operation)}
          >
            <option value="deposit">Deposit</option>
            <option value="withdraw">Withdraw</option>
            <option value="set">Set</option>
          </select>
        </Field>
        <Field label="Amount" htmlFor="balance-amount">
          <input
            id="balance-amount"
            type="number"
            step="any"
            min={0}
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            required
          />
        </Field>
        <button type="submit" className="btn btn-primary" disabled={mutation.isPending || !metricName}>
          {mutation.isPending ? "Saving…" : "Apply"}
        </button>
      </form>
      <ProblemAlert problem={problemFrom(mutation.error ?? metrics.error ?? history.error)} />
      {last ? (
        <p data-testid="balance-remaining">
          Remaining: <strong>{last.remainingAfter}</strong> of {last.totalCreditsAfter}
        </p>
      ) : null}
      <BalanceChart points={history.data ?? []} />
    </section>
  );
}
