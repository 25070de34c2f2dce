"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { z } from "zod";
import { templateFields, type TOfferResponse } from "@/server/domain/entitlements/offers/offer.schemas";
import { ZClaimBasedActivation } from "@/server/domain/entitlements/entitlement/policies.schemas";
import { DEFAULT_CONSUMER_GRANT_LIMITS } from "@/server/domain/entitlements/offers/consumer-grant-limits";
import { useTRPC } from "../shell/trpc-provider";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { ProblemAlert } from "../ui/problem-alert";
import { fieldError, problemFrom, validationProblem, type ProblemJson } from "../ui/problem";

/** The fields this dialog edits, validated with the API's own rules before they are sent. */
const ZOfferEdit = z.object({
  name: templateFields.name,
  description: templateFields.description,
  validityDays: z.number().int().min(1).max(36_500).nullable(),
  isEntitlementTrial: z.boolean(),
  allowAnonymousTry: z.boolean(),
  issueOnUserRegistration: z.boolean(),
  consumersMayGrantCredits: z.boolean(),
  consumerGrantLimitPerGrant: templateFields.consumerGrantLimitPerGrant,
  consumerGrantLimitPerMonth: templateFields.consumerGrantLimitPerMonth,
  claimBasedActivation: ZClaimBasedActivation,
});

const limitText = (value: number | null) => (value === null ? "" : String(value));
const limitValue = (text: string) => (text.trim() ? Number(text) : null);

const flags = [
  ["isEntitlementTrial", "Trial"],
  ["allowAnonymousTry", "Allow anonymous try"],
  ["issueOnUserRegistration", "Issue on user registration"],
  ["consumersMayGrantCredits", "Consumers may grant credits"],
] as const;
type Flag = (typeof flags)[number][0];

/**
 * Edits a Draft offer's name, validity, seats and lease, its trial and registration switches, and
 * the consumer credit grant limits (docs/decisions.md "Consumer credit grant limits").
 */
export function OfferEditDialog({ offer, onClose }: { offer: TOfferResponse; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const claims = ZClaimBasedActivation.parse(offer.claimBasedActivation);
  const [name, setName] = useState(offer.name);
  const [description, setDescription] = useState(offer.description);
  const [validityDays, setValidityDays] = useState(offer.validityDays ? String(offer.validityDays) : "");
  const [seats, setSeats] = useState(String(claims.numberOfSeats));
  const [floating, setFloating] = useState(claims.isFloatingLicense);
  const [leaseTime, setLeaseTime] = useState(claims.leaseTime);
  const [gracePeriod, setGracePeriod] = useState(claims.gracePeriod);
  const [switches, setSwitches] = useState<Record<Flag, boolean>>({
    isEntitlementTrial: offer.isEntitlementTrial,
    allowAnonymousTry: offer.allowAnonymousTry,
    issueOnUserRegistration: offer.issueOnUserRegistration,
    consumersMayGrantCredits: offer.consumersMayGrantCredits,
  });
  const [perGrant, setPerGrant] = useState(limitText(offer.consumerGrantLimitPerGrant));
  const [perMonth, setPerMonth] = useState(limitText(offer.consumerGrantLimitPerMonth));
  const [localProblem, setLocalProblem] = useState<ProblemJson | null>(null);
  const update = useMutation(
    trpc.entitlements.updateOffer.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() });
        onClose();
      },
    }),
  );
  const problem = localProblem ?? problemFrom(update.error);

  function submit(event: FormEvent) {
    event.preventDefault();
    setLocalProblem(null);
    update.reset();
    const parsed = ZOfferEdit.safeParse({
      name,
      description,
      validityDays: validityDays.trim() ? Number(validityDays) : null,
      ...switches,
      consumerGrantLimitPerGrant: limitValue(perGrant),
      consumerGrantLimitPerMonth: limitValue(perMonth),
      claimBasedActivation: {
        ...claims,
        numberOfSeats: Number(seats),
        isFloatingLicense: floating,
        leaseTime: leaseTime.trim(),
        gracePeriod: gracePeriod.trim(),
      },
    });
    if (!parsed.success) return setLocalProblem(validationProblem(parsed.error.issues));
    update.mutate({ id: offer.id, edit: parsed.data });
  }

  return (
    <Dialog
      open
      wide
      title={`Edit ${offer.name}`}
      onClose={onClose}
      footer={
        <>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="offer-edit" className="btn btn-primary" disabled={update.isPending}>
            {update.isPending ? "Saving…" : "Save offer"}
          </button>
        </>
      }
    >
      <ProblemAlert problem={problem} />
      <form id="offer-edit" className="form" onSubmit={submit} noValidate>
        <Field label="Name" htmlFor="offer-edit-name" error={fieldError(problem, "name")}>
          <input id="offer-edit-name" value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field
          label="Description"
          htmlFor="offer-edit-description"
          error={fieldError(problem, "description")}
        >
          <textarea
            id="offer-edit-description"
            rows={2}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </Field>
        <div className="form-row">
          <Field
            label="Seats"
            htmlFor="offer-edit-seats"
            error={fieldError(problem, "claimBasedActivation.numberOfSeats")}
          >
            <input
              id="offer-edit-seats"
              type="number"
              min={1}
              value={seats}
              onChange={(e) => setSeats(e.target.value)}
            />
          </Field>
          <Field
            label="Validity (days)"
            htmlFor="offer-edit-validity"
            hint="Empty: no expiry."
            error={fieldError(problem, "validityDays")}
          >
            <input
              id="offer-edit-validity"
              type="number"
              min={1}
              value={validityDays}
              onChange={(e) => setValidityDays(e.target.value)}
            />
          </Field>
        </div>
        <div className="form-row">
          <Field
            label="Lease time"
            htmlFor="offer-edit-lease"
            hint="ISO 8601 duration, e.g. PT1H."
            error={fieldError(problem, "claimBasedActivation.leaseTime")}
          >
            <input id="offer-edit-lease" value={leaseTime} onChange={(e) => setLeaseTime(e.target.value)} />
          </Field>
          <Field
            label="Grace period"
            htmlFor="offer-edit-grace"
            hint="ISO 8601 duration, e.g. P1D."
            error={fieldError(problem, "claimBasedActivation.gracePeriod")}
          >
            <input
              id="offer-edit-grace"
              value={gracePeriod}
              onChange={(e) => setGracePeriod(e.target.value)}
            />
          </Field>
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={floating} onChange={(e) => setFloating(e.target.checked)} />{" "}
          Floating license
        </label>
        {flags.map(([flag, label]) => (
          <label key={flag} className="checkbox">
            <input
              type="checkbox"
              checked={switches[flag]}
              onChange={(e) => setSwitches({ ...switches, [flag]: e.target.checked })}
            />{" "}
            {label}
          </label>
        ))}
        {switches.consumersMayGrantCredits ? (
          <fieldset className="form-row">
            <legend>What a customer may add to a balance themselves</legend>
            <Field
              label="Most credits per grant"
              htmlFor="offer-edit-grant-limit"
              hint={`Empty: ${DEFAULT_CONSUMER_GRANT_LIMITS.perGrant.toLocaleString("en-US")}.`}
              error={fieldError(problem, "consumerGrantLimitPerGrant")}
            >
              <input
                id="offer-edit-grant-limit"
                type="number"
                min={0}
                step="any"
                value={perGrant}
                onChange={(e) => setPerGrant(e.target.value)}
              />
            </Field>
            <Field
              label="Most credits per month"
              htmlFor="offer-edit-grant-month-limit"
              hint={`Per balance and calendar month (UTC). Empty: ${DEFAULT_CONSUMER_GRANT_LIMITS.perMonth.toLocaleString("en-US")}.`}
              error={fieldError(problem, "consumerGrantLimitPerMonth")}
            >
              <input
                id="offer-edit-grant-month-limit"
                type="number"
                min={0}
                step="any"
                value={perMonth}
                onChange={(e) => setPerMonth(e.target.value)}
              />
            </Field>
          </fieldset>
        ) : null}
      </form>
    </Dialog>
  );
}
