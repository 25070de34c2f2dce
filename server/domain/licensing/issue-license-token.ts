import type { Db } from "../../db/client.ts";
import type { Entitlement, LicenseSession } from "../../db/generated/client.ts";
import { tenantDb } from "../../db/tenant-db.ts";
import { computeEffectiveFeatures } from "../entitlements/effective-features.ts";
import type { TClaimBasedActivation, TEntitlementFeature } from "../entitlements/policies.schemas.ts";
import { signLicenseToken, type LicenseState } from "./license-token.ts";

type TokenSubject = {
  tenantId: string;
  entitlement: Entitlement;
  claims: TClaimBasedActivation;
  session: Pick<LicenseSession, "id" | "entitlementId" | "productIds" | "leaseExpiresAt" | "graceExpiresAt">;
  state: LicenseState;
  fingerprintHash: string;
  activeKid?: string | null;
  /** Whether the entitlement has unrevoked add-on grants, when the caller read it already. */
  hasGrants?: boolean;
};

/**
 * The features a token carries: effective features with includeInLicenseToken that are enabled,
 * narrowed to those available in the license's state (trial, grace). A feature without a value
 * is carried as `true`.
 */
export async function tokenFeatures(base: Db, subject: Pick<TokenSubject, "tenantId" | "entitlement" | "state" | "hasGrants">): Promise<Record<string, string | boolean>> {
  const effective = await computeEffectiveFeatures(tenantDb(base, subject.tenantId), subject.entitlement, undefined, { hasGrants: subject.hasGrants });
  const flags = new Map(((subject.entitlement.features ?? []) as TEntitlementFeature[]).map((f) => [f.featureCode, f]));
  const features: Record<string, string | boolean> = {};
  for (const f of effective) {
    if (!f.isEnabled || !f.includeInLicenseToken) continue;
    const snapshot = flags.get(f.featureCode);
    if (subject.state === "Trial" && snapshot && !snapshot.isAvailableDuringTrialPeriod) continue;
    if (subject.state === "Grace" && snapshot && !snapshot.isAvailableDuringGracePeriod) continue;
    features[f.featureCode] = f.value ?? true;
  }
  return features;
}

/** Signs the license token of a session (DESIGN.md section 5): lifetime = the lease. */
export async function issueLicenseToken(base: Db, subject: TokenSubject): Promise<string> {
  return signLicenseToken(
    base,
    {
      sub: subject.session.id,
      ent: subject.session.entitlementId,
      tid: subject.tenantId,
      dev_fp: subject.fingerprintHash,
      lic_state: subject.state,
      floating: subject.claims.isFloatingLicense,
      products: subject.session.productIds,
      features: await tokenFeatures(base, subject),
      expiresAt: subject.session.leaseExpiresAt,
      graceExpiresAt: subject.session.graceExpiresAt,
    },
    subject.activeKid ?? undefined,
  );
}
