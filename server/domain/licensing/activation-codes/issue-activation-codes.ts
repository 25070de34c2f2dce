import type { DomainContext } from "../../context.ts";
import { inTransaction, type TenantTx } from "../../../db/tenant-db.ts";
import { AppError } from "../../../core/errors.ts";
import { lockEntitlementRow } from "../../entitlements/entitlement/entitlement-lock.ts";
import {
  activationCodeLookupKey,
  generateActivationCode,
  normalizeActivationCode,
  sequenceFits,
  sequenceWidth,
} from "./activation-code-format.ts";
import { toActivationCodeResponses } from "./activation-code-response.ts";
import type { TActivationCodeIssueRequest } from "./activation-code.schemas.ts";
import {
  ZKeyIssuancePolicy,
  type TKeyIssuancePolicy,
} from "../../entitlements/entitlement/key-issuance-policy.schemas.ts";

/**
 * Tries `1 + retryLimit` candidates and returns the first that `tryClaim` accepts (docs/architecture.md
 * section 5: a collision is retried up to the policy's collisionRetryLimit, then issuance fails).
 */
export async function claimWithRetries<T>(
  generate: () => T,
  tryClaim: (candidate: T) => Promise<boolean>,
  retryLimit: number,
): Promise<T> {
  for (let attempt = 0; attempt <= retryLimit; attempt++) {
    const candidate = generate();
    if (await tryClaim(candidate)) return candidate;
  }
  throw new AppError(
    "activation_code.collision_retry_exhausted",
    `Every one of ${retryLimit + 1} generated codes was already taken; the template's code space is too crowded. Widen the template or raise collisionRetryLimit.`,
  );
}

/** Issued entitlements only: an archived entitlement (or a disabled policy) gets no new codes. */
function issuablePolicy(entitlement: { status: string; keyIssuancePolicy: unknown }): TKeyIssuancePolicy {
  if (entitlement.status === "Archived")
    throw new AppError("activation_code.issuance_disabled", "The entitlement is archived.");
  const parsed = ZKeyIssuancePolicy.safeParse(entitlement.keyIssuancePolicy ?? {});
  if (!parsed.success) {
    throw new AppError(
      "activation_code.issuance_disabled",
      `The entitlement's keyIssuancePolicy is invalid: ${parsed.error.issues.map((i) => i.message).join("; ")}`,
    );
  }
  if (!parsed.data.enabled)
    throw new AppError(
      "activation_code.issuance_disabled",
      "The entitlement's keyIssuancePolicy is disabled (enabled: false).",
    );
  return parsed.data;
}

/**
 * The first of `count` sequence numbers, advanced atomically: an entitlement-scoped sequence under
 * the entitlement's row lock (held by the caller), a tenant-scoped one by one upsert.
 */
async function allocateSequence(
  ctx: DomainContext,
  tx: TenantTx,
  policy: TKeyIssuancePolicy,
  count: number,
): Promise<number> {
  if (policy.sequenceScope === "Tenant") {
    const rows = await tx.$queryRaw<{ current: number }[]>`
      INSERT INTO "KeyIssuanceSequence" ("id", "tenantId", "scopeKey", "current")
      VALUES (gen_random_uuid(), ${ctx.tenantId}::uuid, 'tenant', ${policy.sequenceStart + count - 1})
      ON CONFLICT ("tenantId", "scopeKey") DO UPDATE
        SET "current" = GREATEST("KeyIssuanceSequence"."current" + 1, ${policy.sequenceStart}) + ${count - 1}
      RETURNING "current"`;
    return rows[0].current - count + 1;
  }
  return policy.sequenceCurrent === null
    ? policy.sequenceStart
    : Math.max(policy.sequenceCurrent + 1, policy.sequenceStart);
}

export async function issueActivationCodes(
  ctx: DomainContext,
  entitlementId: string,
  input: TActivationCodeIssueRequest,
) {
  return inTransaction(ctx.db, async (tx) => {
    // Serializes issuance (and resets) per entitlement: the sequence below is read-modify-write.
    await lockEntitlementRow(tx, ctx.tenantId, entitlementId);
    const entitlement = await tx.entitlement.findUniqueOrThrow({
      where: { id: entitlementId },
      select: { status: true, keyIssuancePolicy: true },
    });
    const policy = issuablePolicy(entitlement);
    const count = input.count;
    const usesSequence = sequenceWidth(policy.template) > 0;
    const first = usesSequence ? await allocateSequence(ctx, tx, policy, count) : null;
    const last = first === null ? null : first + count - 1;
    if (last !== null && !sequenceFits(policy.template, last)) {
      throw new AppError(
        "activation_code.sequence_exhausted",
        `Sequence number ${last} does not fit the template's ${sequenceWidth(policy.template)} sequence digit(s).`,
      );
    }

    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const sequenceNumber = first === null ? null : first + i;
      await claimWithRetries(
        () => generateActivationCode(policy, sequenceNumber),
        async (candidate) => {
          // ON CONFLICT DO NOTHING: a taken lookupKey must not abort the transaction.
          const created = await tx.activationCode.createManyAndReturn({
            data: [
              {
                tenantId: ctx.tenantId,
                entitlementId,
                code: candidate,
                normalizedCode: normalizeActivationCode(candidate, policy),
                lookupKey: activationCodeLookupKey(candidate),
                normalizeStripSeparators: policy.normalizeStripSeparators,
                normalizeCaseInsensitive: policy.normalizeCaseInsensitive,
                normalizeMapConfusables: policy.normalizeMapConfusables,
                sequenceNumber,
                deviceLimit: input.deviceLimit ?? null,
              },
            ],
            skipDuplicates: true,
            select: { id: true },
          });
          if (created.length) ids.push(created[0].id);
          return created.length > 0;
        },
        policy.collisionRetryLimit,
      );
    }

    if (last !== null) {
      await tx.entitlement.update({
        where: { id: entitlementId },
        data: { keyIssuancePolicy: { ...(entitlement.keyIssuancePolicy as object), sequenceCurrent: last } },
      });
    }
    const rows = await tx.activationCode.findMany({
      where: { id: { in: ids } },
      orderBy: [{ createdAt: "asc" }, { sequenceNumber: "asc" }],
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return {
      entitlementId,
      codes: await toActivationCodeResponses(
        tx,
        ids.map((id) => byId.get(id)!),
      ),
    };
  });
}
