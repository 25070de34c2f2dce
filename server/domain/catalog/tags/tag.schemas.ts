import { z } from "zod";

/** Tag vocabularies: the kinds of records a tag can be put on. Offers have their own. */
export const tagScopes = ["Product", "FeatureCatalog", "Offer", "MonitoredAsset"] as const;
export const ZTagScope = z.enum(tagScopes);
export type TTagScope = z.infer<typeof ZTagScope>;

export const ZTagName = z.string().trim().min(1, "A tag name cannot be empty.").max(100);
export const ZTagColor = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, "color is a #rrggbb hex triplet.")
  .transform((c) => c.toLowerCase());

/** docs/api.md "tags on records": null leaves them unchanged, [] clears, a list replaces. */
export const ZRecordTags = z.array(ZTagName).max(50).nullable().optional();

export const ZTagCreateRequest = z.object({
  scope: ZTagScope,
  name: ZTagName,
  color: ZTagColor.nullable().optional(),
});
export type TTagCreateRequest = z.infer<typeof ZTagCreateRequest>;

/** Merge-PATCH: absent or null leaves a field as it is; `clearColor: true` removes the colour. */
export const ZTagUpdateRequest = z
  .object({
    name: ZTagName.nullable().optional(),
    color: ZTagColor.nullable().optional(),
    clearColor: z.boolean().optional(),
    revisionNumber: z.number().int().positive().optional(),
  })
  .refine((v) => !(v.clearColor && v.color), {
    message: "Give either color or clearColor, not both.",
    path: ["clearColor"],
  });
export type TTagUpdateRequest = z.infer<typeof ZTagUpdateRequest>;

export const ZTagMergeRequest = z.object({
  intoTagId: z.string().uuid(),
});
export type TTagMergeRequest = z.infer<typeof ZTagMergeRequest>;

export const ZTagListQuery = z.object({
  includeDeleted: z
    .enum(["true", "false"])
    .optional()
    .transform((v) => v === "true"),
});

export const ZTagResponse = z.object({
  id: z.string().uuid(),
  scope: z.string(),
  name: z.string(),
  color: z.string().nullable(),
  usageCount: z.number().int(),
  isDeleted: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  revisionNumber: z.number().int(),
});
export type TTagResponse = z.infer<typeof ZTagResponse>;

export const ZTagIdParams = z.object({ id: z.string().uuid() });
