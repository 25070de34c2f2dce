"use client";

import { useState } from "react";
import { formatDateTime, formatQuantity } from "../ui/format";

const operationText: Record<string, string> = {
  Deposit: "Added by your vendor",
  Withdraw: "Taken back by your vendor",
  Set: "Set by your vendor",
  ConsumerGrant: "Added",
  AutoBalance: "Automatic top-up",
  Consume: "Used",
  OverageCharge: "Overage charged",
  UsageCharge: "Usage charged",
};

type BalanceEntry = {
  id: string;
  operation: string;
  amount: number;
  remainingAfter: number;
  actorLabel: string | null;
  createdAt: string;
};

/**
 * The latest entries of a balance, newest first: what happened, how much, by whom, and what was
 * left. A table; where its box is narrow (the portal's panel) each entry stacks as a block
 * (metering.css), so no column is cut off or scrolled out of sight.
 */
export function BalanceHistoryList({ entries }: { entries: BalanceEntry[] }) {
  const [shown, setShown] = useState(10);
  if (entries.length === 0) return null;
  const newest = [...entries].reverse();
  return (
    <div className="table-wrap balance-history">
      <table className="table small" data-testid="balance-history">
        <caption className="muted">Balance history</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">What</th>
            <th scope="col">Credits</th>
            <th scope="col">By</th>
            <th scope="col">Left after</th>
          </tr>
        </thead>
        <tbody>
          {newest.slice(0, shown).map((e) => (
            <tr key={e.id}>
              <td className="balance-history-when">{formatDateTime(e.createdAt)}</td>
              <td className="balance-history-what">{operationText[e.operation] ?? e.operation}</td>
              <td className="balance-history-credits">{formatQuantity(e.amount)}</td>
              <td className="balance-history-by">
                <span className="balance-history-label">By </span>
                {e.actorLabel ?? "—"}
              </td>
              <td className="balance-history-left">
                <span className="balance-history-label">Left after </span>
                {formatQuantity(e.remainingAfter)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {newest.length > shown ? (
        <button type="button" className="btn btn-ghost btn-small" onClick={() => setShown(shown + 10)}>
          Show more
        </button>
      ) : null}
    </div>
  );
}
