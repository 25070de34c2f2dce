import type { Db } from "../../../db/client.ts";
import { tenantDb } from "../../../db/tenant-db.ts";
import type { TEntitlementFeature } from "../../entitlements/entitlement/policies.schemas.ts";
import { activate, type ActivationMeta, type ActivationOutcome } from "./activate.ts";
import type { TActivationRequest } from "./activation.schemas.ts";
import { ZActivationLicenseResponse } from "./activation.schemas.ts";
import { issueLicenseToken } from "../tokens/issue-license-token.ts";
import { toSessionLeaseResponse } from "../sessions/session-access.ts";
import type { z } from "zod";
import type { PendingRateLimits } from "../../rate-limits/hit-rate-limits.ts";

type PropertyValue = { value?: string; visibility?: string };

async function envelope(base: Db, outcome: ActivationOutcome) {
  const lease = toSessionLeaseResponse(outcome.session, outcome.claims);
  return {
    sessionId: lease.sessionId,
    token: await issueLicenseToken(base, outcome),
    leaseExpiresAt: lease.leaseExpiresAt,
    graceExpiresAt: lease.graceExpiresAt,
    nextCheckInDueAt: lease.nextCheckInDueAt,
  };
}

/** POST /activations/jwt: the signed license token alone. */
export async function activateForToken(
  base: Db,
  input: TActivationRequest,
  meta: ActivationMeta,
  limits?: PendingRateLimits,
): Promise<string> {
  return issueLicenseToken(base, await activate(base, input, meta, limits));
}

/**
 * POST /activations/license: the token plus what the application shows about its license: the
 * entitlement's description and terms link, the licensed products with their Public properties,
 * and each feature's name and description (only features the license's state makes available).
 */
export async function activateForLicense(
  base: Db,
  input: TActivationRequest,
  meta: ActivationMeta,
  limits?: PendingRateLimits,
): Promise<z.infer<typeof ZActivationLicenseResponse>> {
  const outcome = await activate(base, input, meta, limits);
  const { entitlement: e, claims, session, state } = outcome;
  const products = await tenantDb(base, outcome.tenantId).product.findMany({
    where: { id: { in: session.productIds } },
    orderBy: { name: "asc" },
  });
  const features = ((e.features ?? []) as TEntitlementFeature[]).filter(
    (f) =>
      session.productIds.includes(f.productId) &&
      !(state === "Trial" && !f.isAvailableDuringTrialPeriod) &&
      !(state === "Grace" && !f.isAvailableDuringGracePeriod),
  );
  return {
    ...(await envelope(base, outcome)),
    license: {
      entitlementId: e.id,
      name: e.name,
      description: e.description,
      licenseTermsUrl: e.licenseTermsUrl,
      state,
      isFloatingLicense: claims.isFloatingLicense,
      numberOfSeats: claims.numberOfSeats,
      expirationDateTime: e.expirationDateTime?.toISOString() ?? null,
      products: products.map((p) => ({
        id: p.id,
        productCode: p.productCode,
        productVersion: p.productVersion,
        name: p.name,
        expirationDate: p.expirationDate?.toISOString() ?? null,
        properties: Object.fromEntries(
          Object.entries((p.propertyValues ?? {}) as Record<string, PropertyValue>)
            .filter(([, v]) => v?.visibility === "Public")
            .map(([k, v]) => [k, v.value ?? ""]),
        ),
      })),
      features: features.map((f) => ({
        featureCode: f.featureCode,
        name: f.name,
        description: f.description,
        productId: f.productId,
        value: f.value,
        isEnabled: f.isEnabled,
      })),
    },
  };
}
