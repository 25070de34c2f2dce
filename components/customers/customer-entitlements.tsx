"use client";

import Link from "next/link";
import { useState, type ReactNode } from "react";
import { useMutation } from "@tanstack/react-query";
import type { TCustomerOverview } from "@/server/domain/operations/customer-overview";
import { useTRPC } from "../shell/trpc-provider";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatCountOf, formatDateTime } from "../ui/format";
import { billedAmount, billingSummary } from "../ui/enum-labels";
import { StatusBadge } from "../pricing/status-badge";
import { Section, Table } from "./customer-sections";

/**
 * The customer's entitlements with their seats, expiry and billing, and the two actions support
 * takes from here: reset an entitlement's devices (asked first) and issue one activation code.
 */
export function CustomerEntitlements({
  entitlements,
  entitlementName,
  onDone,
}: {
  entitlements: TCustomerOverview["entitlements"];
  entitlementName: (id: string) => ReactNode;
  /** Called with what was done, once it is; the page shows it and reloads. */
  onDone: (notice: string) => Promise<void>;
}) {
  const trpc = useTRPC();
  const [resetting, setResetting] = useState<{ id: string; name: string } | null>(null);
  const reset = useMutation(
    trpc.licensing.resetDevices.mutationOptions({
      onSuccess: async (r) => {
        setResetting(null);
        await onDone(
          `Devices reset: ${formatCountOf(r.devicesReset, "device")}, transfer count ${r.transferCount}.`,
        );
      },
    }),
  );
  const issue = useMutation(
    trpc.licensing.issueActivationCodes.mutationOptions({
      onSuccess: (r) => onDone(`Issued ${r.codes.map((c) => c.code).join(", ")}`),
    }),
  );
  return (
    <Section title="Entitlements" count={entitlements.length}>
      <ProblemAlert
        problem={problemFrom(reset.error ?? issue.error)}
        onDismiss={() => {
          reset.reset();
          issue.reset();
        }}
      />
      {entitlements.length === 0 ? (
        <p className="muted">No entitlement is assigned to this customer.</p>
      ) : (
        <Table
          label="Entitlements"
          head={["Entitlement", "Status", "Plan", "Seats in use", "Expires", "Billing", "Actions"]}
          empty="No entitlement is assigned to this customer."
        >
          {entitlements.map((e) => (
            <tr key={e.id}>
              <td>{entitlementName(e.id)}</td>
              <td>
                <StatusBadge status={e.status} />
              </td>
              <td>{e.planName ?? <span className="muted">none</span>}</td>
              <td>
                <Link href={`/admin/sessions?entitlementId=${e.id}&state=`}>
                  {e.activeSessions} of {formatCountOf(e.seats, "seat")}
                </Link>
                {e.transferCount ? (
                  <span className="muted small"> · {formatCountOf(e.transferCount, "reset")}</span>
                ) : null}
              </td>
              <td>{e.expirationDateTime ? formatDateTime(e.expirationDateTime) : "never"}</td>
              <td>
                {e.billing ? (
                  <>
                    {billingSummary(e.billing)}
                    {e.billing.amount ? (
                      <span className="muted small">
                        {" "}
                        · {billedAmount(e.billing.amount, e.billing.currency, e.billing.interval)}
                      </span>
                    ) : null}
                  </>
                ) : (
                  <span className="muted">No billing record</span>
                )}
              </td>
              <td className="row-actions">
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={() => setResetting({ id: e.id, name: e.name })}
                >
                  Reset devices
                </button>
                <button
                  type="button"
                  className="btn btn-small"
                  disabled={issue.isPending || e.status !== "Published"}
                  onClick={() => issue.mutate({ entitlementId: e.id, count: 1 })}
                >
                  Issue code
                </button>
              </td>
            </tr>
          ))}
        </Table>
      )}
      <ConfirmDialog
        open={resetting !== null}
        title="Reset devices"
        confirmLabel="Reset devices"
        danger
        busy={reset.isPending}
        problem={problemFrom(reset.error)}
        onConfirm={() => resetting && reset.mutate({ entitlementId: resetting.id })}
        onCancel={() => setResetting(null)}
      >
        <p>
          End every session of <strong>{resetting?.name}</strong> and free its seats? The devices can activate
          again; the entitlement&apos;s transfer count goes up by one.
        </p>
      </ConfirmDialog>
    </Section>
  );
}
