"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { TEntitlementMeter } from "@/server/domain/metering/meters/meter.schemas";
import { ZConsumerCreditGrantRequest } from "@/server/domain/metering/balances/balance-mutation.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Field } from "../ui/field";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { portalItem, portalLine, portalList } from "../licensing/portal-list";
import { ConfirmDialog } from "../ui/form";
import { formatQuantity } from "../ui/format";
import { BalanceChart } from "./balance-chart";
import { SeverityBadge } from "./severity-badge";
import { UsagePeriodChart } from "./usage-period-chart";
import { BalanceHistoryList } from "./balance-history-list";
import "./metering.css";

/**
 * The consumer credit grant: the amount is checked with the API's schema, then the customer
 * confirms, seeing the balance after the grant; a grant past the license's limit is refused in
 * plain words and changes nothing.
 */
function GrantCredits({
  entitlementId,
  metricName,
  name,
  remaining,
  onDone,
}: {
  entitlementId: string;
  metricName: string;
  name: string;
  remaining: number;
  onDone: () => void;
}) {
  const trpc = useTRPC();
  const [amount, setAmount] = useState("");
  const [invalid, setInvalid] = useState<string | undefined>();
  const [confirming, setConfirming] = useState<number | null>(null);
  const grant = useMutation(
    trpc.balances.grantMine.mutationOptions({
      onSuccess: () => {
        setAmount("");
        setConfirming(null);
        onDone();
      },
      onError: () => setConfirming(null),
    }),
  );
  function submit(event: FormEvent) {
    event.preventDefault();
    grant.reset();
    const parsed = ZConsumerCreditGrantRequest.safeParse({ metricName, amount: Number(amount) });
    setInvalid(parsed.success ? undefined : "Enter a number of credits greater than 0.");
    if (parsed.success) setConfirming(parsed.data.amount);
  }
  const after = confirming === null ? 0 : Number((remaining + confirming).toFixed(6));
  return (
    <>
      <form onSubmit={submit} aria-label={`Add credits to ${name}`} style={portalLine} noValidate>
        <Field label={`Add credits to ${name}`} htmlFor={`grant-${metricName}`} error={invalid}>
          <input
            id={`grant-${metricName}`}
            type="number"
            step="any"
            min={0}
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            style={{ width: "8rem" }}
          />
        </Field>
        <button type="submit" className="btn btn-small" disabled={grant.isPending}>
          Add credits
        </button>
      </form>
      <ProblemAlert problem={problemFrom(grant.error)} onDismiss={() => grant.reset()} />
      <ConfirmDialog
        open={confirming !== null}
        title={`Add ${formatQuantity(confirming)} credits to ${name}?`}
        confirmLabel={`Add ${formatQuantity(confirming)} credits`}
        busy={grant.isPending}
        consequences={[
          `The balance goes from ${formatQuantity(remaining)} to ${formatQuantity(after)} credits.`,
          "The grant is recorded under your name and cannot be taken back from the portal.",
        ]}
        onCancel={() => setConfirming(null)}
        onConfirm={() =>
          confirming !== null && grant.mutate({ entitlementId, metricName, amount: confirming })
        }
      />
    </>
  );
}

function Meter({
  entitlementId,
  meter,
  mayGrant,
  refresh,
}: {
  entitlementId: string;
  meter: TEntitlementMeter;
  mayGrant: boolean;
  refresh: () => void;
}) {
  const trpc = useTRPC();
  const history = useQuery({
    ...trpc.meters.myHistory.queryOptions({ entitlementId, metricName: meter.metricName }),
    enabled: meter.usageKind !== "Balance",
  });
  const balanceHistory = useQuery({
    ...trpc.meters.myBalanceHistory.queryOptions({ entitlementId, metricName: meter.metricName }),
    enabled: Boolean(meter.balance),
  });
  const c = meter.current;
  return (
    <li style={portalItem} data-testid="my-meter">
      <div style={portalLine}>
        <strong>{meter.name}</strong>
        <span className="mono small muted">{meter.metricName}</span>
        {/* "None" is the vendor's word for usage within every band: a customer needs no badge for it. */}
        {c.severity !== "None" ? (
          <>
            <span className="small muted">Usage level</span>
            <SeverityBadge severity={c.severity} />
          </>
        ) : null}
      </div>
      {meter.balance ? (
        <div className="small" data-testid="my-remaining-credits">
          {meter.balance.isUnlimitedCredits
            ? "Unlimited credits"
            : `${formatQuantity(meter.balance.remainingCredits)} of ${formatQuantity(meter.balance.totalCredits)} credits remaining`}
        </div>
      ) : (
        <div className="small" data-testid="my-meter-usage">
          {c.usage}
          {c.limit !== null ? ` of ${c.limit}` : ""} used {c.periodEnd ? "this period" : "in all"}
          {c.remaining !== null ? ` · ${c.remaining} left` : ""}
        </div>
      )}
      <ProblemAlert problem={problemFrom(history.error ?? balanceHistory.error)} />
      {meter.usageKind !== "Balance" && history.data ? (
        <UsagePeriodChart
          points={history.data}
          limit={c.limit}
          label={`Your usage of ${meter.name} per period`}
        />
      ) : null}
      {meter.balance && balanceHistory.data ? <BalanceChart points={balanceHistory.data} /> : null}
      {meter.balance && mayGrant && !meter.balance.isUnlimitedCredits ? (
        <GrantCredits
          entitlementId={entitlementId}
          metricName={meter.metricName}
          name={meter.name}
          remaining={meter.balance.remainingCredits ?? 0}
          onDone={refresh}
        />
      ) : null}
      {meter.balance && balanceHistory.data ? <BalanceHistoryList entries={balanceHistory.data} /> : null}
    </li>
  );
}

/** Portal: the usage of one of the user's licenses per metric over time, remaining credits and the credit grant. */
export function MyUsage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const licenses = useQuery(trpc.sessions.myLicenses.queryOptions());
  const [chosen, setChosen] = useState("");
  const entitlementId = chosen || licenses.data?.[0]?.entitlementId || "";
  const usage = useQuery({
    ...trpc.meters.mine.queryOptions({ entitlementId }),
    enabled: Boolean(entitlementId),
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.meters.pathKey() });
  };
  if (licenses.error) return <ProblemAlert problem={problemFrom(licenses.error)} />;
  if (!licenses.data) return <p className="muted">Loading…</p>;
  if (licenses.data.length === 0) return <p className="muted">No license has been assigned to you yet.</p>;
  return (
    <div data-testid="my-usage">
      {licenses.data.length > 1 ? (
        <Field label="License" htmlFor="usage-license">
          <select id="usage-license" value={entitlementId} onChange={(e) => setChosen(e.target.value)}>
            {licenses.data.map((l) => (
              <option key={l.entitlementId} value={l.entitlementId}>
                {l.name}
              </option>
            ))}
          </select>
        </Field>
      ) : null}
      <ProblemAlert problem={problemFrom(usage.error)} />
      {usage.data ? (
        usage.data.meters.length ? (
          <ul style={portalList}>
            {usage.data.meters.map((m) => (
              <Meter
                key={m.metricName}
                entitlementId={entitlementId}
                meter={m}
                mayGrant={usage.data.consumersMayGrantCredits}
                refresh={refresh}
              />
            ))}
          </ul>
        ) : (
          <p className="muted">This license tracks no usage.</p>
        )
      ) : null}
    </div>
  );
}
