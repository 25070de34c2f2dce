"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "../shell/trpc-provider";
import { Field } from "../ui/field";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";

type Point = { remainingAfter: number; createdAt: string; operation: string; amount: number };

/** Remaining credits after each entry (mutations and consumption), as a small SVG line chart. */
export function BalanceChart({ points }: { points: Point[] }) {
  if (points.length === 0) return <p className="muted">No balance history yet.</p>;
  const width = 480;
  const height = 120;
  const values = points.map((p) => p.remainingAfter);
  const max = Math.max(...values, 0);
  const min = Math.min(...values, 0);
  const span = max - min || 1;
  const x = (i: number) => (points.length === 1 ? width / 2 : (i / (points.length - 1)) * (width - 10) + 5);
  const y = (v: number) => height - 5 - ((v - min) / span) * (height - 10);
  const path = points
    .map((p, i) => `${i === 0 ? "M" : "L"}${x(i).toFixed(1)},${y(p.remainingAfter).toFixed(1)}`)
    .join(" ");
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      width="100%"
      height={height}
      role="img"
      aria-label="Balance over time"
      data-testid="balance-chart"
    >
      <line x1={0} x2={width} y1={y(0)} y2={y(0)} stroke="currentColor" strokeOpacity={0.2} />
      <path d={path} fill="none" stroke="currentColor" strokeWidth={2} />
      {points.map((p, i) => (
        <circle key={i} cx={x(i)} cy={y(p.remainingAfter)} r={3}>
          <title>{`${formatDateTime(p.createdAt)} · ${p.operation} ${p.amount} → ${p.remainingAfter}`}</title>
        </circle>
      ))}
    </svg>
  );
}

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
