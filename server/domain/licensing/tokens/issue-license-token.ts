import type { Db } from "../../../db/client.ts";
import type { Entitlement, LicenseSession } from "../../../db/generated/client.ts";
import { isTenantScoped, tenantDb, type TenantDbOrTx } from "../../../db/tenant-db.ts";
import { computeEffectiveFeatures } from "../../entitlements/entitlement/effective-features.ts";
import type {
  TClaimBasedActivation,
  TEntitlementFeature,
} from "../../entitlements/entitlement/policies.schemas.ts";
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
export async function tokenFeatures(
  db: Db | TenantDbOrTx,
  subject: Pick<TokenSubject, "tenantId" | "entitlement" | "state" | "hasGrants">,
): Promise<Record<string, string | boolean>> {
  // A process client is narrowed to the tenant; a tenant client or transaction already is.
  const scoped = isTenantScoped(db) ? (db as TenantDbOrTx) : tenantDb(db as Db, subject.tenantId);
  const effective = await computeEffectiveFeatures(scoped, subject.entitlement, undefined, {
    hasGrants: subject.hasGrants,
  });
  const flags = new Map(
    ((subject.entitlement.features ?? []) as TEntitlementFeature[]).map((f) => [f.featureCode, f]),
  );
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

/**
 * Signs the license token of a session (docs/architecture.md section 5): lifetime = the lease. `db` is the
 * caller's (a tenant client, or the request's own transaction under an Idempotency-Key, so the
 * request holds one connection), or the process client for a cross-tenant activation.
 */
export async function issueLicenseToken(db: Db | TenantDbOrTx, subject: TokenSubject): Promise<string> {
  return signLicenseToken(
    db,
    {
      sub: subject.session.id,
      ent: subject.session.entitlementId,
      tid: subject.tenantId,
      dev_fp: subject.fingerprintHash,
      lic_state: subject.state,
      floating: subject.claims.isFloatingLicense,
      products: subject.session.productIds,
      features: await tokenFeatures(db, subject),
      expiresAt: subject.session.leaseExpiresAt,
      graceExpiresAt: subject.session.graceExpiresAt,
    },
    subject.activeKid ?? undefined,
  );
}
