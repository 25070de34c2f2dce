import { createHash } from "node:crypto";
import { isUniqueViolation } from "../../../db/errors.ts";
import type { OfflineActivation } from "../../../db/generated/client.ts";
import { isOpenTransaction, type TenantDbOrTx } from "../../../db/tenant-db.ts";
import type { DomainContext } from "../../context.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { now } from "../../../clock.ts";
import { activationCodeLookupKey } from "../activation-codes/activation-code-format.ts";
import { inputMatchesCode } from "../activation-codes/find-activation-code.ts";
import { ZClaimBasedActivation } from "../../entitlements/entitlement/policies.schemas.ts";
import type { ActivationOutcome } from "../activation/activation-outcome.ts";
import { decideActivation } from "../activation/decide-activation.ts";
import { tokenFeatures } from "../tokens/issue-license-token.ts";
import { licenseIssuer, tenantSigningKey } from "../tokens/license-token.ts";
import {
  OFFLINE_SCHEMA_VERSION,
  type TOfflineActivationRequest,
  type TOfflineActivationResponse,
  type TOfflineLicense,
} from "./offline-artifact.schemas.ts";
import { offlinePayloadKid, signOfflineLicense } from "./sign-offline-license.ts";

/**
 * docs/api.md: (code, fingerprint, requestedAt) is the idempotency cache key. The code enters by its
 * id (every spelling the code's normalization accepts is the same code), requestedAt as ISO with
 * milliseconds (the same instant in any offset is the same request).
 */
export function offlineRequestKey(codeId: string, fingerprint: string, requestedAt: Date): string {
  return createHash("sha256")
    .update(JSON.stringify(["offline-activation", codeId, fingerprint, requestedAt.toISOString()]))
    .digest("hex");
}

/** The stored bytes, answered as they were first issued (never re-serialized). */
const storedResponse = (row: OfflineActivation): TOfflineActivationResponse => ({
  signedPayload: row.signedPayload,
  signature: row.signature,
  kid: offlinePayloadKid(row.signedPayload),
});

async function offlineLicense(
  db: TenantDbOrTx,
  outcome: ActivationOutcome,
  artifact: TOfflineActivationRequest,
  requestedAt: Date,
  kid: string,
): Promise<TOfflineLicense> {
  const { entitlement: e, claims, session, state } = outcome;
  const products = await db.product.findMany({
    where: { id: { in: session.productIds } },
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
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
    products: products.map((p) => ({
      id: p.id,
      productCode: p.productCode,
      productVersion: p.productVersion,
      name: p.name,
    })),
    features: await tokenFeatures(db, { tenantId: outcome.tenantId, entitlement: e, state }),
  };
}

/**
 * POST /operational/activations/offline/issue: an operator presents an air-gapped machine's
 * request artifact; the answer is the signed response artifact. The code must be the caller's
 * tenant's; the license must allow offline activation (403 `license.forbidden_by_policy`); then
 * the one activation decision runs with kind `Offline` (its refusals pass through unchanged).
 * The artifact is stored under its request key: a repeat answers the identical bytes while the
 * session it issued is still active (docs/decisions.md "Offline activation").
 */
export async function issueOfflineActivation(
  ctx: DomainContext,
  artifact: TOfflineActivationRequest,
): Promise<TOfflineActivationResponse> {
  const { meta, body } = artifact;
  const db = ctx.db;
  // The caller's tenant's codes only: the tenant client narrows the service-wide lookup key.
  const lookupKey = activationCodeLookupKey(body.activationCode);
  const found = lookupKey ? await db.activationCode.findFirst({ where: { lookupKey } }) : null;
  const code = found && inputMatchesCode(body.activationCode, found) ? found : null;
  if (!code) throw notFound("Activation code");
  if (code.status === "Revoked")
    throw new AppError("activation_code.revoked", "The activation code has been revoked.");
  const entitlement = await db.entitlement.findFirst({
    where: { id: code.entitlementId },
    select: { claimBasedActivation: true },
  });
  if (!entitlement) throw notFound("Entitlement");
  if (!ZClaimBasedActivation.parse(entitlement.claimBasedActivation ?? {}).allowOfflineActivation) {
    throw new AppError("license.forbidden_by_policy", "This license does not allow offline activation.");
  }

  const requestedAt = new Date(meta.requestedAt);
  const requestKey = offlineRequestKey(code.id, body.fingerprint, requestedAt);
  const stored = await db.offlineActivation.findFirst({ where: { requestKey } });
  if (stored) {
    const session = await db.licenseSession.findFirst({
      where: { id: stored.sessionId },
      select: { revokedAt: true },
    });
    if (!session || session.revokedAt) {
      throw new AppError(
        "license.no_active_session",
        "The session this request artifact activated has ended; create a new request artifact on the device.",
      );
    }
    return storedResponse(stored);
  }

  // Under an Idempotency-Key `db` is the request's transaction: the activation joins it.
  const outcome = await decideActivation(
    db,
    ctx.tenantId,
    code.entitlementId,
    code,
    {
      activationCode: body.activationCode,
      fingerprint: body.fingerprint,
      components: body.components ?? null,
      applicationInfo: body.applicationInfo ?? null,
    },
    { kind: "Offline", ip: null, idempotencyKey: null, user: null },
  );
  const { kid, key } = await tenantSigningKey(db, ctx.tenantId, outcome.activeKid ?? undefined);
  const signed = signOfflineLicense(await offlineLicense(db, outcome, artifact, requestedAt, kid), key);
  const record = {
    tenantId: ctx.tenantId,
    entitlementId: outcome.entitlement.id,
    sessionId: outcome.session.id,
    requestKey,
    signedPayload: signed.signedPayload,
    signature: signed.signature,
  };
  if (isOpenTransaction(db)) {
    // Inside the caller's transaction a failed insert would abort it: skip a duplicate instead.
    const { count } = await db.offlineActivation.createMany({ data: [record], skipDuplicates: true });
    if (count === 1) return { ...signed, kid };
    return storedResponse(await db.offlineActivation.findFirstOrThrow({ where: { requestKey } }));
  }
  try {
    await db.offlineActivation.create({ data: record });
    return { ...signed, kid };
  } catch (error) {
    // A concurrent identical request stored its artifact first (the activation itself returned the same session to both).
    if (!isUniqueViolation(error)) throw error;
    return storedResponse(await db.offlineActivation.findFirstOrThrow({ where: { requestKey } }));
  }
}
