import { z } from "zod";

export const MAX_SUITE_MEMBERS = 100;

export const ZSuiteCode = z.string().trim().min(1, "A suite code cannot be empty.").max(100);
export const ZSuiteName = z.string().trim().min(1, "A suite name cannot be empty.").max(200);
export const ZSuiteDescription = z.string().max(4000);

const distinct = (ids: readonly string[]) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length;

/** Product ids in sell order (first = sold first). */
export const ZSellOrder = z
  .array(z.string().uuid())
  .max(MAX_SUITE_MEMBERS, `A suite has at most ${MAX_SUITE_MEMBERS} members.`)
  .refine(distinct, { message: "A product can be listed only once." });

/** docs/api.md: POST /admin/suites. An explicitly created suite is never implicit. */
export const ZSuiteCreateRequest = z.object({
  code: ZSuiteCode,
  name: ZSuiteName,
  description: ZSuiteDescription.nullable()
    .default("")
    .transform((v) => v ?? ""),
  memberProductIds: ZSellOrder.default([]),
});
export type TSuiteCreateRequest = z.infer<typeof ZSuiteCreateRequest>;

/** Merge-PATCH of the suite's own fields; members change through their own endpoints. */
export const ZSuiteUpdateRequest = z.object({
  code: ZSuiteCode.nullable().optional(),
  name: ZSuiteName.nullable().optional(),
  description: ZSuiteDescription.nullable().optional(),
});
export type TSuiteUpdateRequest = z.infer<typeof ZSuiteUpdateRequest>;

/**
 * POST /admin/suites/{id}/members: the complete sell order. Products not yet members join;
 * every current member must be listed (members leave only through DELETE, which carries
 * docs/api.md's plan-set rules).
 */
export const ZSuiteMembersRequest = z.object({ productIds: ZSellOrder });
export type TSuiteMembersRequest = z.infer<typeof ZSuiteMembersRequest>;

export const ZSuiteListQuery = z.object({
  includeImplicit: z
    .enum(["true", "false"])
    .optional()
    .transform((v) => v === "true"),
});

export const ZSuiteMember = z.object({
  productId: z.string().uuid(),
  productCode: z.string().nullable(),
  productVersion: z.string().nullable(),
  productName: z.string().nullable(),
  sortOrder: z.number().int(),
});
export type TSuiteMember = z.infer<typeof ZSuiteMember>;

export const ZSuiteResponse = z.object({
  id: z.string().uuid(),
  code: z.string(),
  name: z.string(),
  description: z.string(),
  isImplicit: z.boolean(),
  members: z.array(ZSuiteMember),
  referencedBy: z.object({ planSets: z.number().int(), addOns: z.number().int() }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TSuiteResponse = z.infer<typeof ZSuiteResponse>;

export const ZSuiteIdParams = z.object({ suiteId: z.string().uuid() });
export const ZSuiteMemberParams = z.object({ suiteId: z.string().uuid(), productId: z.string().uuid() });
