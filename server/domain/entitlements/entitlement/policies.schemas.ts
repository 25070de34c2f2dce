import { z } from "zod";
import { isoDurationMillis } from "../../catalog/iso-duration.ts";

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Whether an IPv6 address is well formed (the URL parser knows the grammar, in Node and browsers alike). */
function isIpv6(address: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(address) || !address.includes(":")) return false;
  try {
    new URL(`http://[${address}]/`);
    return true;
  } catch {
    return false;
  }
}

/**
 * `network/prefix` with a valid IPv4 (prefix 0–32) or IPv6 (0–128) network: what the activation's
 * address check can load, so a saved policy never breaks activations later.
 */
export function isCidrBlock(value: string): boolean {
  const match = /^([^/]+)\/(\d{1,3})$/.exec(value);
  if (!match) return false;
  const prefix = Number(match[2]);
  if (IPV4.test(match[1])) return prefix <= 32;
  return isIpv6(match[1]) && prefix <= 128;
}

/**
 * The JSON policies an offer hands to the entitlements made from it (docs/api.md "Entitlement and
 * offer"). keyIssuancePolicy is owned by the activation-code work (key-issuance-policy.schemas.ts).
 */

/** docs/api.md activationPolicy. */
export const ZActivationPolicy = z.object({
  requiredAuthenticationLevel: z.enum(["Default", "User", "VerifiedUser"]).default("Default"),
  requireNewUserVerification: z.boolean().default(false),
  requireProductCode: z.boolean().default(false),
  requireActivationWorkflow: z.boolean().default(false),
  requireOrganizationGroupMember: z.string().uuid().nullable().default(null),
  allowedIpCidr: z
    .array(
      z
        .string()
        .refine(
          isCidrBlock,
          "allowedIpCidr entries are CIDR blocks such as 203.0.113.0/24 or 2001:db8::/32.",
        ),
    )
    .max(100)
    .default([]),
  requirePreConfiguredDeviceIdentification: z.boolean().default(false),
  requiredDeviceIdentificationSignatureLength: z.number().int().min(0).max(4096).default(0),
});
export type TActivationPolicy = z.output<typeof ZActivationPolicy>;

/** The longest lease, grace period, inactivity timeout or check-in interval: 100 years (as validityDays). */
export const MAX_POLICY_DURATION_DAYS = 36_500;

const ZIsoDuration = z
  .string()
  .regex(
    /^P(?!$)(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/,
    "Durations are ISO 8601 (days, hours, minutes, seconds), e.g. PT1H or P1DT12H.",
  )
  // A duration past any representable date would break every activation that adds it to "now".
  .refine(
    (v) => (isoDurationMillis(v) ?? 0) <= MAX_POLICY_DURATION_DAYS * 86_400_000,
    `Durations are at most ${MAX_POLICY_DURATION_DAYS} days.`,
  );

export const componentMatchingStrategies = ["MatchAll", "MatchAny", "Two", "Most"] as const;

/**
 * docs/api.md claimBasedActivation: leaseTime, gracePeriod, numberOfSeats, isFloatingLicense, and
 * what floating and inactivity-based licenses need (docs/decisions.md): an inactivity-based seat
 * is freed after `inactivityTimeout` without a check-in; clients check in every `checkInInterval`;
 * a device matches its stored identity per `componentMatchingStrategy`; `allowOfflineActivation`
 * permits the offline artifacts; `maxDevicesPerSeat` bounds devices a node-locked seat may move to.
 */
export const ZClaimBasedActivation = z
  .object({
    leaseTime: ZIsoDuration.default("PT1H"),
    gracePeriod: ZIsoDuration.default("P1D"),
    numberOfSeats: z.number().int().min(1).max(1_000_000).default(1),
    isFloatingLicense: z.boolean().default(false),
    isInactivityBased: z.boolean().default(false),
    inactivityTimeout: ZIsoDuration.nullable().default(null),
    checkInInterval: ZIsoDuration.nullable().default(null),
    componentMatchingStrategy: z.enum(componentMatchingStrategies).default("MatchAll"),
    allowOfflineActivation: z.boolean().default(false),
  })
  .superRefine((v, ctx) => {
    if (v.isInactivityBased && !v.inactivityTimeout) {
      ctx.addIssue({
        code: "custom",
        path: ["inactivityTimeout"],
        message: "An inactivity-based license needs an inactivityTimeout.",
      });
    }
    if (!v.isInactivityBased && v.inactivityTimeout) {
      ctx.addIssue({
        code: "custom",
        path: ["inactivityTimeout"],
        message: "inactivityTimeout applies only when isInactivityBased is true.",
      });
    }
  });
export type TClaimBasedActivation = z.output<typeof ZClaimBasedActivation>;

/** One feature on an offer or entitlement (docs/api.md "features"), snapshotted from the products. */
export const ZEntitlementFeature = z.object({
  id: z.string().uuid(),
  featureCode: z.string(),
  productId: z.string().uuid(),
  moduleName: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  value: z.string().nullable(),
  isEnabled: z.boolean(),
  isAvailableDuringTrialPeriod: z.boolean(),
  isAvailableDuringGracePeriod: z.boolean(),
  isPaidFeature: z.boolean(),
  canModifyValueOnEntitlement: z.boolean(),
  includeInLicenseToken: z.boolean(),
  meteredAssetId: z.string().uuid().nullable(),
  featureExpiration: z.string().datetime({ offset: true }).nullable(),
  catalogLifecycleStatus: z.string().nullable(),
});
export type TEntitlementFeature = z.infer<typeof ZEntitlementFeature>;

/** A change to one snapshotted feature, by code: what an offer or a direct entitlement may set. */
export const ZFeatureSetting = z.object({
  featureCode: z.string().trim().min(1).max(200),
  value: z.string().max(10_000).nullable().optional(),
  isEnabled: z.boolean().optional(),
  canModifyValueOnEntitlement: z.boolean().optional(),
  includeInLicenseToken: z.boolean().optional(),
  featureExpiration: z.string().datetime({ offset: true }).nullable().optional(),
});
export type TFeatureSetting = z.infer<typeof ZFeatureSetting>;

export const ZProductSummary = z.object({
  id: z.string().uuid(),
  productCode: z.string().nullable(),
  productVersion: z.string().nullable(),
  name: z.string().nullable(),
});
