import { z } from "zod";

export const activationCodeStatuses = ["Active", "Revoked"] as const;

/** POST /operational/entitlements/{id}/activation-codes. */
export const ZActivationCodeIssueRequest = z.object({
  /** Distinct devices that may hold an activation through one code at once; null or absent = no per-code limit. */
  deviceLimit: z.number().int().min(1).max(1_000_000).nullable().optional(),
  /** How many codes to issue (1–100). */
  count: z.number().int().min(1).max(100).default(1),
});
export type TActivationCodeIssueRequest = z.infer<typeof ZActivationCodeIssueRequest>;

export const ZActivationCodeResponse = z.object({
  id: z.string().uuid(),
  entitlementId: z.string().uuid(),
  code: z.string(),
  status: z.enum(activationCodeStatuses),
  deviceLimit: z.number().int().nullable(),
  /** Distinct devices holding an unrevoked activation through this code (emptied by a device reset). */
  devicesInUse: z.number().int(),
  sequenceNumber: z.number().int().nullable(),
  revokedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TActivationCodeResponse = z.infer<typeof ZActivationCodeResponse>;

export const ZActivationCodeIssueResponse = z.object({
  entitlementId: z.string().uuid(),
  codes: z.array(ZActivationCodeResponse),
});

/** `{code}` is the code as issued, any normalized variant of it, or its id. */
export const ZActivationCodeParams = z.object({ code: z.string().min(1).max(200) });
