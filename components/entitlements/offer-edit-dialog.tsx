"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useWatch } from "react-hook-form";
import { z } from "zod";
import { templateFields, type TOfferResponse } from "@/server/domain/entitlements/offers/offer.schemas";
import { ZClaimBasedActivation } from "@/server/domain/entitlements/entitlement/policies.schemas";
import { DEFAULT_CONSUMER_GRANT_LIMITS } from "@/server/domain/entitlements/offers/consumer-grant-limits";
import { useTRPC } from "../shell/trpc-provider";
import { Dialog } from "../ui/dialog";
import { CheckboxField, Form, NumberField, TextField, useSchemaForm } from "../ui/form";

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

type OfferEdit = z.infer<typeof ZOfferEdit>;
type Values = Omit<OfferEdit, "claimBasedActivation"> & {
  claimBasedActivation: z.input<typeof ZClaimBasedActivation>;
};

const flags = [
  ["isEntitlementTrial", "Trial"],
  ["allowAnonymousTry", "Allow anonymous try"],
  ["issueOnUserRegistration", "Issue on user registration"],
  ["consumersMayGrantCredits", "Consumers may grant credits"],
] as const;

/**
 * Edits a Draft offer's name, validity, seats and lease, its trial and registration switches, and
 * the consumer credit grant limits (docs/decisions.md "Consumer credit grant limits").
 */
export function OfferEditDialog({ offer, onClose }: { offer: TOfferResponse; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useSchemaForm<Values, OfferEdit>(ZOfferEdit, {
    defaultValues: {
      name: offer.name,
      description: offer.description,
      validityDays: offer.validityDays,
      isEntitlementTrial: offer.isEntitlementTrial,
      allowAnonymousTry: offer.allowAnonymousTry,
      issueOnUserRegistration: offer.issueOnUserRegistration,
      consumersMayGrantCredits: offer.consumersMayGrantCredits,
      consumerGrantLimitPerGrant: offer.consumerGrantLimitPerGrant,
      consumerGrantLimitPerMonth: offer.consumerGrantLimitPerMonth,
      // The offer's other licensing settings ride along unchanged.
      claimBasedActivation: ZClaimBasedActivation.parse(offer.claimBasedActivation),
    },
    toPayload: (v) => ({
      ...v,
      claimBasedActivation: {
        ...v.claimBasedActivation,
        leaseTime: v.claimBasedActivation.leaseTime?.trim(),
        gracePeriod: v.claimBasedActivation.gracePeriod?.trim(),
      },
    }),
  });
  const update = useMutation(
    trpc.entitlements.updateOffer.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.entitlements.pathKey() });
        onClose();
      },
      onError: form.showProblem,
    }),
  );
  const grants = useWatch({ control: form.control, name: "consumersMayGrantCredits" });

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
      <Form
        form={form}
        id="offer-edit"
        onSubmit={(edit) => {
          update.reset();
          update.mutate({ id: offer.id, edit });
        }}
      >
        <TextField name="name" label="Name" />
        <TextField name="description" label="Description" multiline rows={2} />
        <div className="form-row">
          <NumberField name="claimBasedActivation.numberOfSeats" label="Seats" />
          <NumberField name="validityDays" label="Validity (days)" emptyAs={null} hint="Empty: no expiry." />
        </div>
        <div className="form-row">
          <TextField
            name="claimBasedActivation.leaseTime"
            label="Lease time"
            hint="ISO 8601 duration, e.g. PT1H."
          />
          <TextField
            name="claimBasedActivation.gracePeriod"
            label="Grace period"
            hint="ISO 8601 duration, e.g. P1D."
          />
        </div>
        <CheckboxField name="claimBasedActivation.isFloatingLicense" label="Floating license" />
        {flags.map(([flag, label]) => (
          <CheckboxField key={flag} name={flag} label={label} />
        ))}
        {grants ? (
          <fieldset className="form-row">
            <legend>What a customer may add to a balance themselves</legend>
            <NumberField
              name="consumerGrantLimitPerGrant"
              label="Most credits per grant"
              emptyAs={null}
              hint={`Empty: ${DEFAULT_CONSUMER_GRANT_LIMITS.perGrant.toLocaleString("en-US")}.`}
            />
            <NumberField
              name="consumerGrantLimitPerMonth"
              label="Most credits per month"
              emptyAs={null}
              hint={`Per balance and calendar month (UTC). Empty: ${DEFAULT_CONSUMER_GRANT_LIMITS.perMonth.toLocaleString("en-US")}.`}
            />
          </fieldset>
        ) : null}
      </Form>
    </Dialog>
  );
}
