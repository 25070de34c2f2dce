import { z } from "zod";

/** PUT /admin/entitlements/{id}/plan: a plan of a Published plan-set revision. */
export const ZAssignPlanRequest = z.object({
  planSetId: z.string().uuid(),
  planName: z.string().trim().min(1).max(200),
  /** What triggered the change; defaults to a manual admin action. */
  source: z.string().trim().min(1).max(100).default("ManualAdminAction"),
});
export type TAssignPlanRequest = z.infer<typeof ZAssignPlanRequest>;

export const ZPlanHistoryItem = z.object({
  id: z.string().uuid(),
  entitlementId: z.string().uuid(),
  changedAt: z.string(),
  previousPlanSetId: z.string().uuid().nullable(),
  previousPlanName: z.string().nullable(),
  newPlanSetId: z.string().uuid(),
  newPlanName: z.string(),
  source: z.string(),
});

/** POST /consumer/me/entitlements/{id}/plan-change-requests. planSetId defaults to the entitlement's current plan set. */
export const ZPlanChangeRequestCreate = z.object({
  planName: z.string().trim().min(1).max(200),
  planSetId: z.string().uuid().nullable().default(null),
  note: z.string().trim().max(2000).nullable().default(null),
});
export type TPlanChangeRequestCreate = z.infer<typeof ZPlanChangeRequestCreate>;

/** POST /admin/plan-change-requests/{id}/review: the answer, and optionally a note the customer reads. */
export const ZPlanChangeReview = z.object({
  approved: z.boolean(),
  note: z
    .string()
    .trim()
    .max(2000)
    .nullable()
    .default(null)
    .transform((v) => v || null),
});
export type TPlanChangeReview = z.infer<typeof ZPlanChangeReview>;

export const planChangeStatuses = ["Pending", "Approved", "Rejected"] as const;

export const ZPlanChangeRequestResponse = z.object({
  id: z.string().uuid(),
  entitlementId: z.string().uuid(),
  requestedByUserId: z.string().uuid(),
  requestedPlanSetId: z.string().uuid(),
  requestedPlanName: z.string(),
  /** docs/api.md `requestedPlanCode`: the requested plan's name. */
  requestedPlanCode: z.string(),
  currentPlanSetId: z.string().uuid().nullable(),
  currentPlanName: z.string().nullable(),
  note: z.string().nullable(),
  status: z.enum(planChangeStatuses),
  reviewedAt: z.string().nullable(),
  reviewedBy: z.string().nullable(),
  /** What the reviewer told the customer. */
  reviewNote: z.string().nullable(),
  createdAt: z.string(),
});
export type TPlanChangeRequestResponse = z.infer<typeof ZPlanChangeRequestResponse>;

export const ZIdParams = z.object({ id: z.string().uuid() });
