import { z } from "zod";

export const targetKinds = ["Http", "Capture"] as const;
export const subscriptionStates = ["PendingVerification", "Active", "Disabled", "Suspended"] as const;
export type TSubscriptionState = (typeof subscriptionStates)[number];
export const createdViaValues = ["integrator", "admin"] as const;

/**
 * docs/api.md "Subscriptions": filters by entity kind, by severity (overage events) and by attribute equality.
 * The key names `entityKinds` and `severities` are ours (the published interface leaves them open). Null values are
 * accepted here so the domain can refuse them as a filter that could never match (4034).
 */
export const ZSubscriptionFiltersInput = z
  .object({
    entityKinds: z.array(z.string().trim().max(100)).max(20).optional(),
    severities: z.array(z.string().trim().max(100)).max(20).optional(),
    attributeEquality: z.record(z.string().max(200), z.string().max(1000).nullable()).optional(),
  })
  .strict();
export type TSubscriptionFiltersInput = z.infer<typeof ZSubscriptionFiltersInput>;

export const ZSubscriptionFilters = z.object({
  entityKinds: z.array(z.string()).optional(),
  severities: z.array(z.string()).optional(),
  attributeEquality: z.record(z.string(), z.string()).optional(),
});
export type TSubscriptionFilters = z.infer<typeof ZSubscriptionFilters>;

const ZUrl = z.string().trim().min(1).max(2048);
const ZDisplayName = z.string().trim().min(1, "displayName cannot be empty.").max(200);
const ZPatterns = z.array(z.string().trim().max(200)).max(100);
const ZCallbackScopes = z.array(z.string().trim().max(200)).max(50);
const ZSecret = z.string().trim().max(200);

export const ZSubscriptionCreateRequest = z.object({
  targetKind: z.enum(targetKinds).default("Http"),
  url: ZUrl.nullable().optional(),
  displayName: ZDisplayName,
  eventTypePatterns: ZPatterns,
  filters: ZSubscriptionFiltersInput.nullable().optional(),
  callbackScopes: ZCallbackScopes.nullable().optional(),
  /** Supplied signing secret; generated (and shown once) when absent. */
  secret: ZSecret.nullable().optional(),
});
export type TSubscriptionCreateRequest = z.input<typeof ZSubscriptionCreateRequest>;

/** Merge-PATCH: absent or null leaves a field; `clearFilters` removes the filters, `callbackScopes: []` clears them. */
export const ZSubscriptionUpdateRequest = z
  .object({
    url: ZUrl.nullable().optional(),
    displayName: ZDisplayName.nullable().optional(),
    eventTypePatterns: ZPatterns.nullable().optional(),
    filters: ZSubscriptionFiltersInput.nullable().optional(),
    clearFilters: z.boolean().optional(),
    callbackScopes: ZCallbackScopes.nullable().optional(),
    /** Refused when it differs: the kind is fixed at creation. */
    targetKind: z.enum(targetKinds).nullable().optional(),
    revisionNumber: z.number().int().positive().optional(),
  })
  .refine((v) => !(v.clearFilters && v.filters), {
    message: "Give either filters or clearFilters, not both.",
    path: ["clearFilters"],
  });
export type TSubscriptionUpdateRequest = z.infer<typeof ZSubscriptionUpdateRequest>;

export const ZSecretRotationRequest = z.object({
  /** Supplied new secret; generated (and shown once) when absent. */
  secret: ZSecret.nullable().optional(),
  /** How long the previous secret keeps signing: default 24 hours, at most 7 days, 0 ends it at once. */
  overlapSeconds: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 3600)
    .optional(),
});
export type TSecretRotationRequest = z.infer<typeof ZSecretRotationRequest>;

export const ZSubscriptionResponse = z.object({
  id: z.string().uuid(),
  targetKind: z.enum(targetKinds),
  url: z.string().nullable(),
  displayName: z.string(),
  eventTypePatterns: z.array(z.string()),
  filters: ZSubscriptionFilters.nullable(),
  callbackScopes: z.array(z.string()),
  state: z.enum(subscriptionStates),
  createdVia: z.enum(createdViaValues),
  /** Until when the previous secret still signs (rotation overlap); null when only one secret signs. */
  previousSecretExpiresAt: z.string().nullable(),
  secretRotatedAt: z.string().nullable(),
  lastVerificationAt: z.string().nullable(),
  /** Why the last verification failed; null after a success or before any. */
  lastVerificationError: z.string().nullable(),
  /** Why the service itself last changed the state (its integration's credential was revoked); null otherwise. */
  stateReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  revisionNumber: z.number().int(),
});
export type TSubscriptionResponse = z.infer<typeof ZSubscriptionResponse>;

/** Create and secret rotation answer the subscription plus its signing secret, shown this once. */
export const ZSubscriptionWithSecretResponse = ZSubscriptionResponse.extend({
  secret: z.string().nullable(),
});
export type TSubscriptionWithSecretResponse = z.infer<typeof ZSubscriptionWithSecretResponse>;

export const ZSubscriptionIdParams = z.object({ id: z.string().uuid() });

export const ZSubscriptionListQuery = z.object({
  /** docs/api.md: the integrator's list is "optionally filtered by state" (also `filter=state==...`). */
  state: z.enum(subscriptionStates).optional(),
});

export const ZTestFireRequest = z.object({ eventType: z.string().trim().max(200).nullable().optional() });
export const ZTestFirePreviewQuery = z.object({ eventType: z.string().trim().max(200).optional() });
export const ZTestFireResponse = z.object({ envelopeId: z.string().uuid(), eventType: z.string() });

export const ZReplayRequest = z.object({
  envelopeIds: z.array(z.string().uuid()).max(200).nullable().optional(),
  from: z.string().datetime({ offset: true }).nullable().optional(),
  to: z.string().datetime({ offset: true }).nullable().optional(),
  eventType: z.string().trim().max(200).nullable().optional(),
  entityId: z.string().trim().max(200).nullable().optional(),
});
export type TReplayRequest = z.infer<typeof ZReplayRequest>;

export const ZReplayResponse = z.object({
  replayedCount: z.number().int(),
  replays: z.array(z.object({ originalEnvelopeId: z.string().uuid(), envelopeId: z.string().uuid() })),
});
export type TReplayResponse = z.infer<typeof ZReplayResponse>;
