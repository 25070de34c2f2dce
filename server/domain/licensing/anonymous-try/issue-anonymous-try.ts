import type { Db } from "../../../db/client.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { now } from "../../../clock.ts";
import { systemContext } from "../../context.ts";
import { fingerprintHash } from "../devices/fingerprint-hash.ts";
import { issueActivationCodes } from "../activation-codes/issue-activation-codes.ts";
import type { ActivationMeta } from "../activation/activation-outcome.ts";
import { activateForLicense } from "../activation/activation-responses.ts";
import { createEntitlement } from "../../entitlements/entitlement/create-entitlement.ts";
import { ZEntitlementCreateRequest } from "../../entitlements/entitlement/entitlement.schemas.ts";
import type { TAnonymousTryRequest, TAnonymousTryResponse } from "./anonymous-try.schemas.ts";
import {
  anonymousTryExpiration,
  anonymousTryPurgeDueAt,
} from "../../entitlements/anonymous-try/anonymous-try-terms.ts";

type Claim = { entitlementId: string | null; activationCodeId: string | null };

/**
 * POST /activations/anonymous-try (docs/decisions.md "Entitlements", anonymous try). Like
 * activation it names no tenant: the offer id does. A device gets one try per offer: the first
 * request issues a Published trial entitlement from the offer (`isAnonymousTry`, no customer,
 * `anonymousTryIssuedAt`, `anonymousTryPurgeDueAt`) with one activation code limited to that
 * device; every request then activates through the public activation function with that code,
 * so a repeat from the same device gets its session back, never a second try. The claim row
 * (unique per offer and fingerprint hash) serialises concurrent first requests and outlives the
 * purge, so a purged try is not issued again.
 */
export async function issueAnonymousTry(
  base: Db,
  input: TAnonymousTryRequest,
  meta: ActivationMeta,
): Promise<TAnonymousTryResponse> {
  const offer = await base.offer.findUnique({ where: { id: input.offerId } });
  if (!offer || offer.status !== "Published") throw notFound("Offer");
  if (!offer.allowAnonymousTry)
    throw new AppError("anonymous_try.not_allowed", "This offer does not allow anonymous tries.");
  const ctx = systemContext(base, offer.tenantId, "anonymous-try");
  const hash = fingerprintHash(input.fingerprint);

  const code = await inTransaction(ctx.db, async (tx) => {
    const at = now();
    const inserted = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO "AnonymousTryClaim" ("id", "tenantId", "offerId", "fingerprintHash", "claimedAt")
      VALUES (gen_random_uuid(), ${offer.tenantId}::uuid, ${offer.id}::uuid, ${hash}, ${at})
      ON CONFLICT ("tenantId", "offerId", "fingerprintHash") DO NOTHING
      RETURNING "id"`;
    if (!inserted.length) {
      const [claim] = await tx.$queryRaw<Claim[]>`
        SELECT "entitlementId", "activationCodeId" FROM "AnonymousTryClaim"
        WHERE "tenantId" = ${offer.tenantId}::uuid AND "offerId" = ${offer.id}::uuid AND "fingerprintHash" = ${hash}`;
      if (!claim.entitlementId || !claim.activationCodeId)
        throw new AppError(
          "anonymous_try.already_used",
          "This device has already had its anonymous try of this offer; register or buy to continue.",
        );
      const issued = await tx.activationCode.findUniqueOrThrow({
        where: { id: claim.activationCodeId },
        select: { code: true },
      });
      return issued.code;
    }

    const expiration = anonymousTryExpiration(offer, at);
    const txCtx = { ...ctx, db: tx };
    const entitlement = await createEntitlement(
      txCtx,
      ZEntitlementCreateRequest.parse({
        offerId: offer.id,
        expirationDateTime: expiration.toISOString(),
        isEntitlementTrial: true,
        // The try is reached through its code alone, whatever the offer's policy says of issuing.
        keyIssuancePolicy: { ...(offer.keyIssuancePolicy as object), enabled: true, sequenceCurrent: null },
      }),
    );
    await tx.entitlement.update({
      where: { id: entitlement.id },
      data: {
        isAnonymousTry: true,
        anonymousTryIssuedAt: at,
        anonymousTryPurgeDueAt: anonymousTryPurgeDueAt(expiration),
      },
    });
    const issued = await issueActivationCodes(txCtx, entitlement.id, { count: 1, deviceLimit: 1 });
    await tx.anonymousTryClaim.update({
      where: { id: inserted[0].id },
      data: { entitlementId: entitlement.id, activationCodeId: issued.codes[0].id },
    });
    return issued.codes[0].code;
  });

  const activation = await activateForLicense(
    base,
    {
      activationCode: code,
      fingerprint: input.fingerprint,
      productCode: input.productCode,
      deviceName: input.deviceName,
      processId: input.processId,
      components: input.components,
      applicationInfo: input.applicationInfo,
    },
    meta,
  );
  const anonymousTry = await ctx.db.entitlement.findUniqueOrThrow({
    where: { id: activation.license.entitlementId },
    select: {
      id: true,
      anonymousTryIssuedAt: true,
      expirationDateTime: true,
      anonymousTryPurgeDueAt: true,
      convertedToEntitlementId: true,
    },
  });
  return {
    ...activation,
    activationCode: code,
    anonymousTry: {
      entitlementId: anonymousTry.id,
      anonymousTryIssuedAt: anonymousTry.anonymousTryIssuedAt!.toISOString(),
      expirationDateTime: anonymousTry.expirationDateTime?.toISOString() ?? null,
      anonymousTryPurgeDueAt: anonymousTry.anonymousTryPurgeDueAt?.toISOString() ?? null,
      convertedToEntitlementId: anonymousTry.convertedToEntitlementId,
    },
  };
}
