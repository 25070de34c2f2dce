import { z } from "zod";

/** POST /operational/entitlements/{id}/renew (docs/architecture.md section 8): the new end of validity. */
export const ZEntitlementRenewRequest = z.strictObject({
  expirationDateTime: z.string().datetime({ offset: true }),
});
export type TEntitlementRenewRequest = z.infer<typeof ZEntitlementRenewRequest>;

/** The most entitlements one bulk renewal takes: a page of the list at its largest. */
export const MAX_BULK_RENEWALS = 100;
export const renewalPeriodUnits = ["days", "months", "years"] as const;

/**
 * How a bulk renewal moves each end: to one day (each entitlement keeps its end's time of day, as
 * the single Renew does), or by a period counted from each one's current end.
 */
export const ZRenewalExtension = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("until"),
    date: z.iso.date("Give the new end date as a day (yyyy-mm-dd)."),
  }),
  z.strictObject({
    kind: z.literal("by"),
    count: z
      .number()
      .int("Give a whole number of days, months or years.")
      .min(1, "Extend by at least 1.")
      .max(120, "Extend by at most 120 at a time."),
    unit: z.enum(renewalPeriodUnits),
  }),
]);
export type TRenewalExtension = z.infer<typeof ZRenewalExtension>;

/** The back office's bulk renew: the selected entitlements, each renewed on its own. */
export const ZEntitlementBulkRenewRequest = z.strictObject({
  ids: z
    .array(z.string().uuid())
    .min(1, "Choose at least one entitlement.")
    .max(MAX_BULK_RENEWALS, `Renew at most ${MAX_BULK_RENEWALS} entitlements at a time.`)
    .refine((ids) => new Set(ids).size === ids.length, "Choose each entitlement once."),
  extension: ZRenewalExtension,
});
export type TEntitlementBulkRenewRequest = z.infer<typeof ZEntitlementBulkRenewRequest>;

/** One entitlement's outcome: renewed (or already there), or refused with the problem's code and detail. */
export const ZBulkRenewalOutcome = z.object({
  id: z.string().uuid(),
  name: z.string(),
  outcome: z.enum(["Renewed", "Unchanged", "Refused"]),
  /** The end after the call: the new one, or the one kept when refused. */
  expirationDateTime: z.string().nullable(),
  refusal: z.object({ codeName: z.string(), status: z.number().int(), detail: z.string() }).nullable(),
});
export const ZEntitlementBulkRenewResult = z.object({ results: z.array(ZBulkRenewalOutcome) });
export type TEntitlementBulkRenewResult = z.infer<typeof ZEntitlementBulkRenewResult>;
