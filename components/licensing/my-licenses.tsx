"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { TConsumerLicense } from "@/server/domain/entitlements/consumer/list-consumer-licenses";
import { useTRPC } from "../shell/trpc-provider";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatCountOf, formatDate } from "../ui/format";
import { ConfirmDialog } from "../ui/form";
import { ConsumerPlansList, planPrice, type ConsumerPlans } from "./consumer-plans-list";
import { MyBillingHistory } from "./my-billing-history";
import { portalItem, portalLine, portalList } from "./portal-list";

type Plan = ConsumerPlans["plans"][number];

/** The plans behind a license, and the plan-change request: the customer picks a plan and confirms. */
function LicensePlans({ license }: { license: TConsumerLicense }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const plans = useQuery(trpc.sessions.myLicensePlans.queryOptions({ entitlementId: license.entitlementId }));
  const [chosen, setChosen] = useState<Plan | null>(null);
  const [note, setNote] = useState("");
  const request = useMutation(
    trpc.sessions.myPlanChange.mutationOptions({
      onSuccess: async () => {
        setChosen(null);
        setNote("");
        await queryClient.invalidateQueries({ queryKey: trpc.sessions.myLicensePlans.pathKey() });
      },
    }),
  );
  if (plans.error) return <ProblemAlert problem={problemFrom(plans.error)} />;
  if (!plans.data) return <p className="muted small">Loading…</p>;
  const pending = plans.data.pendingPlanChangeRequest;
  return (
    <>
      {pending ? (
        <p className="small" data-testid="pending-plan-change">
          <span className="badge">Pending</span> You asked to change to{" "}
          <strong>{pending.requestedPlanName}</strong> on {formatDate(pending.createdAt)}. Your vendor reviews
          it; your plan stays {plans.data.planName ?? "as it is"} until then.
        </p>
      ) : null}
      <ConsumerPlansList plans={plans.data} onChoose={(p) => (request.reset(), setChosen(p))} />
      <ConfirmDialog
        open={chosen !== null}
        title={`Change ${license.name} to ${chosen?.name ?? ""}?`}
        confirmLabel={`Request ${chosen?.name ?? ""}`}
        busy={request.isPending}
        error={request.error}
        consequences={[
          `Your request goes to your vendor for review; ${license.name} stays on ${plans.data.planName ?? "its plan"} until they approve it.`,
          `${chosen?.name ?? ""} costs ${chosen ? planPrice(chosen) : ""}.`,
          "You will see their answer here.",
        ]}
        onCancel={() => setChosen(null)}
        onConfirm={() =>
          chosen &&
          request.mutate({
            entitlementId: license.entitlementId,
            planName: chosen.name,
            planSetId: chosen.planSetId,
            note: note.trim() || null,
          })
        }
      >
        <div className="field">
          <label htmlFor={`plan-note-${license.entitlementId}`}>Note for your vendor (optional)</label>
          <textarea
            id={`plan-note-${license.entitlementId}`}
            rows={3}
            maxLength={2000}
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
        </div>
      </ConfirmDialog>
    </>
  );
}

function License({ license }: { license: TConsumerLicense }) {
  const [open, setOpen] = useState<"plans" | "history" | null>(null);
  const validity = license.expirationDateTime
    ? `valid until ${formatDate(license.expirationDateTime)}`
    : "no expiry date";
  const toggle = (panel: "plans" | "history") => setOpen(open === panel ? null : panel);
  return (
    <li style={portalItem} data-testid="my-license">
      <div style={portalLine}>
        <strong>{license.name}</strong>
        {license.isTrial ? <span className="badge">Trial</span> : null}
        {license.status !== "Published" ? <span className="badge badge-muted">{license.status}</span> : null}
      </div>
      {license.description ? <div className="muted small">{license.description}</div> : null}
      <div className="small">
        {license.seatsInUse} of {formatCountOf(license.numberOfSeats, "seat")} in use · {validity}
        {license.planName ? (
          <>
            {" "}
            · plan <strong data-testid="license-plan">{license.planName}</strong>
          </>
        ) : null}
      </div>
      {license.products.length ? (
        <div className="chips small">
          {license.products.map((p) => (
            <span key={p.id} className="chip">
              {p.name}
            </span>
          ))}
        </div>
      ) : null}
      <div style={portalLine}>
        <button
          type="button"
          className="btn btn-ghost btn-small"
          aria-expanded={open === "plans"}
          onClick={() => toggle("plans")}
          aria-label={`Plans of ${license.name}`}
        >
          {open === "plans" ? "Hide plans" : "Plans"}
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-small"
          aria-expanded={open === "history"}
          onClick={() => toggle("history")}
          aria-label={`History of ${license.name}`}
        >
          {open === "history" ? "Hide history" : "History"}
        </button>
      </div>
      {open === "plans" ? <LicensePlans license={license} /> : null}
      {open === "history" ? <MyBillingHistory entitlementId={license.entitlementId} /> : null}
    </li>
  );
}

/** Portal: the licenses assigned to the signed-in user or their organisation, with their plans and history. */
export function MyLicenses() {
  const trpc = useTRPC();
  const licenses = useQuery(trpc.sessions.myLicenses.queryOptions());
  if (licenses.error) return <ProblemAlert problem={problemFrom(licenses.error)} />;
  if (!licenses.data) return <p className="muted">Loading…</p>;
  if (licenses.data.length === 0)
    return (
      <p className="muted" data-testid="no-licenses">
        No license has been assigned to you yet.
      </p>
    );
  return (
    <ul style={portalList} data-testid="my-licenses">
      {licenses.data.map((l) => (
        <License key={l.entitlementId} license={l} />
      ))}
    </ul>
  );
}
