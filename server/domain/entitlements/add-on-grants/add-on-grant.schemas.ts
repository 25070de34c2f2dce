import { z } from "zod";

/** docs/api.md POST /admin/entitlements/{entitlementId}/add-on-grants. */
export const ZAddOnGrantCreateRequest = z
  .object({
    addOnId: z.string().uuid(),
    /** null starts immediately. */
    startsAtUtc: z.string().datetime({ offset: true }).nullable().default(null),
    /** null never expires. */
    expiresAtUtc: z.string().datetime({ offset: true }).nullable().default(null),
    reference: z.string().trim().max(200).nullable().default(null),
    /** A rating campaign: records an add-on-grant attribution touch. */
    campaignId: z.string().uuid().nullable().default(null),
  })
  .superRefine((v, ctx) => {
    if (v.startsAtUtc && v.expiresAtUtc && new Date(v.expiresAtUtc) <= new Date(v.startsAtUtc)) {
      ctx.addIssue({
        code: "custom",
        path: ["expiresAtUtc"],
        message: "expiresAtUtc must be after startsAtUtc.",
      });
    }
  });
export type TAddOnGrantCreateRequest = z.infer<typeof ZAddOnGrantCreateRequest>;

/** docs/api.md "Grant (returned by the admin API)". */
export const ZAddOnGrantResponse = z.object({
  id: z.string().uuid(),
  addOnId: z.string().uuid(),
  addOnCode: z.string(),
  addOnName: z.string(),
  suiteId: z.string().uuid(),
  suiteName: z.string(),
  startsAt: z.string(),
  expiresAt: z.string().nullable(),
  isRevoked: z.boolean(),
  revokedAt: z.string().nullable(),
  reference: z.string().nullable(),
  campaignId: z.string().uuid().nullable(),
  isActive: z.boolean(),
});
export type TAddOnGrantResponse = z.infer<typeof ZAddOnGrantResponse>;

export const ZAddOnGrantParams = z.object({ id: z.string().uuid(), grantId: z.string().uuid() });
