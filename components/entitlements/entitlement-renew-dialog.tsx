"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { TEntitlementResponse } from "@/server/domain/entitlements/entitlement/entitlement.schemas";
import { ZEntitlementRenewRequest } from "@/server/domain/entitlements/entitlement/renewal.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { ProblemAlert } from "../ui/problem-alert";
import { fieldError, problemFrom, validationProblem, type ProblemJson } from "../ui/problem";
import { formatDateTime } from "../ui/format";

/** `YYYY-MM-DD` of a timestamp, in UTC (the day the entitlement's end falls on). */
const dayOf = (iso: string) => iso.slice(0, 10);

/** The current end moved by a year: what most renewals ask for. */
function aYearLater(iso: string): string {
  const d = new Date(iso);
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  return dayOf(d.toISOString());
}

/**
 * Renew/extend (POST /operational/entitlements/{id}/renew): a later end of validity, kept at the
 * current end's time of day. A renewal never shortens; the server says so if asked.
 */
export function EntitlementRenewDialog({
  entitlement,
  onClose,
}: {
  entitlement: TEntitlementResponse & { expirationDateTime: string };
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const current = entitlement.expirationDateTime;
  const [day, setDay] = useState(aYearLater(current));
  const [localProblem, setLocalProblem] = useState<ProblemJson | null>(null);
  const renew = useMutation(
    trpc.entitlements.renew.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.audit.pathKey() });
        onClose();
      },
    }),
  );
  const problem = localProblem ?? problemFrom(renew.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    renew.reset();
    const parsed = ZEntitlementRenewRequest.safeParse({
      expirationDateTime: day ? `${day}${current.slice(10)}` : "",
    });
    if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
    renew.mutate({ id: entitlement.id, renewal: parsed.data });
  }

  return (
    <Dialog
      open
      title={`Renew ${entitlement.name}`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            form="entitlement-renew"
            className="btn btn-primary"
            disabled={renew.isPending}
          >
            {renew.isPending ? "Renewing…" : "Renew"}
          </button>
        </>
      }
    >
      <ProblemAlert problem={problem} />
      <form id="entitlement-renew" className="form" onSubmit={submit} noValidate>
        <p>Currently ends {formatDateTime(current)}.</p>
        <Field
          label="New end date"
          htmlFor="renew-until"
          hint="Later than the current end. Billing periods recorded by hand move along."
          error={fieldError(problem, "expirationDateTime")}
        >
          <input
            id="renew-until"
            type="date"
            min={dayOf(current)}
            value={day}
            onChange={(e) => setDay(e.target.value)}
          />
        </Field>
      </form>
    </Dialog>
  );
}
