import { createHash } from "node:crypto";
import type { Db } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import type { OfflineActivation } from "../../db/generated/client.ts";
import { tenantDb, type TenantDb } from "../../db/tenant-db.ts";
import { AppError, notFound } from "../../http/errors.ts";
import { now } from "../../clock.ts";
import { findActivationCodeByInput } from "../entitlements/find-activation-code.ts";
import { ZClaimBasedActivation } from "../entitlements/policies.schemas.ts";
import { activate, type ActivationOutcome } from "./activate.ts";
import { tokenFeatures } from "./issue-license-token.ts";
import { licenseIssuer, tenantSigningKey } from "./license-token.ts";
import { OFFLINE_SCHEMA_VERSION, type TOfflineActivationRequest, type TOfflineActivationResponse, type TOfflineLicense } from "./offline-artifact.schemas.ts";
import { offlinePayloadKid, signOfflineLicense } from "./sign-offline-license.ts";

/**
 * SPEC.md: (code, fingerprint, requestedAt) is the idempotency cache key. The code enters by its
 * id (every spelling the code's normalization accepts is the same code), requestedAt as ISO with
 * milliseconds (the same instant in any offset is the same request).
 */
export function offlineRequestKey(codeId: string, fingerprint: string, requestedAt: Date): string {
  return createHash("sha256").update(JSON.stringify(["offline-activation", codeId, fingerprint, requestedAt.toISOString()])).digest("hex");
}

/** The stored bytes, answered as they were first issued (never re-serialized). */
const storedResponse = (row: OfflineActivation): TOfflineActivationResponse => ({
  signedPayload: row.signedPayload,
  signature: row.signature,
  kid: offlinePayloadKid(row.signedPayload),
});

async function offlineLicense(base: Db, db: TenantDb, outcome: ActivationOutcome, artifact: TOfflineActivationRequest, requestedAt: Date, kid: string): Promise<TOfflineLicense> {
  const { entitlement: e, claims, session, state } = outcome;
  const products = await db.product.findMany({ where: { id: { in: session.productIds } }, orderBy: [{ name: "asc" }, { id: "asc" }] });
  return {
    schemaVersion: OFFLINE_SCHEMA_VERSION,
    nonce: artifact.meta.nonce,
    requestedAt: requestedAt.toISOString(),
    issuedAt: now().toISOString(),
    issuer: licenseIssuer(outcome.tenantId),
    kid,
    licenseId: session.id,
    sessionId: session.id,
    tenantId: outcome.tenantId,
    entitlementId: e.id,
    entitlementName: e.name,
    state,
    isFloatingLicense: claims.isFloatingLicense,
    expirationDateTime: e.expirationDateTime?.toISOString() ?? null,
    leaseExpiresAt: session.leaseExpiresAt.toISOString(),
    graceExpiresAt: session.graceExpiresAt.toISOString(),
    deviceFingerprintHash: outcome.fingerprintHash,
    componentMatchingStrategy: claims.componentMatchingStrategy,
    components: artifact.body.components ?? null,
    products: products.map((p) => ({ id: p.id, productCode: p.productCode, productVersion: p.productVersion, name: p.name })),
    features: await tokenFeatures(base, { tenantId: outcome.tenantId, entitlement: e, state }),
  };
}

/**
 * POST /operational/activations/offline/issue: an operator presents an air-gapped machine's
 * request artifact; the answer is the signed response artifact. The code must be the caller's
 * tenant's; the license must allow offline activation (403 `license.forbidden_by_policy`); then
 * the one activation decision runs with kind `Offline` (its refusals pass through unchanged).
 * The artifact is stored under its request key: a repeat answers the identical bytes while the
 * session it issued is still active (docs/decisions.md "Runtime licensing: offline activation").
 */
export async function issueOfflineActivation(base: Db, tenantId: string, artifact: TOfflineActivationRequest): Promise<TOfflineActivationResponse> {
  const { meta, body } = artifact;
  const code = await findActivationCodeByInput(base, body.activationCode);
  if (!code || code.tenantId !== tenantId) throw notFound("Activation code");
  const db = tenantDb(base, tenantId);
  const entitlement = await db.entitlement.findFirst({ where: { id: code.entitlementId }, select: { claimBasedActivation: true } });
  if (!entitlement) throw notFound("Entitlement");
  if (!ZClaimBasedActivation.parse(entitlement.claimBasedActivation ?? {}).allowOfflineActivation) {
    throw new AppError("license.forbidden_by_policy", "This license does not allow offline activation.");
  }

  const requestedAt = new Date(meta.requestedAt);
  const requestKey = offlineRequestKey(code.id, body.fingerprint, requestedAt);
  const stored = await db.offlineActivation.findFirst({ where: { requestKey } });
  if (stored) {
    const session = await db.licenseSession.findFirst({ where: { id: stored.sessionId }, select: { revokedAt: true } });
    if (!session || session.revokedAt) {
      throw new AppError("license.no_active_session", "The session this request artifact activated has ended; create a new request artifact on the device.");
    }
    return storedResponse(stored);
  }

  const outcome = await activate(
    base,
    { activationCode: body.activationCode, fingerprint: body.fingerprint, components: body.components ?? null, applicationInfo: body.applicationInfo ?? null },
    { kind: "Offline", ip: null, idempotencyKey: null, user: null },
  );
  const { kid, key } = await tenantSigningKey(base, tenantId, outcome.activeKid ?? undefined);
  const signed = signOfflineLicense(await offlineLicense(base, db, outcome, artifact, requestedAt, kid), key);
  try {
    await db.offlineActivation.create({
      data: { tenantId, entitlementId: outcome.entitlement.id, sessionId: outcome.session.id, requestKey, signedPayload: signed.signedPayload, signature: signed.signature },
    });
    return { ...signed, kid };
  } catch (error) {
    // A concurrent identical request stored its artifact first (the activation itself returned the same session to both).
    if (!isUniqueViolation(error)) throw error;
    return storedResponse(await db.offlineActivation.findFirstOrThrow({ where: { requestKey } }));
  }
}
