import { createHash } from "node:crypto";
import type { Entitlement, LicenseSession } from "../../../db/generated/client.ts";
import { AppError } from "../../../core/errors.ts";
import type { ActivationFacts } from "./activation-facts.ts";
import type { TActivationRequest } from "./activation.schemas.ts";

/** The request's identity for the durable activation Idempotency-Key: same key, other request → 409. */
export function activationRequestHash(input: TActivationRequest, kind: string): string {
  const canonical = JSON.stringify([
    kind,
    input.activationCode ?? null,
    input.fingerprint,
    input.useInteractiveUser ?? false,
    input.productCode ?? null,
    input.processId ?? null,
    input.components ?? null,
  ]);
  return createHash("sha256").update(canonical).digest("hex");
}

/** A session row read as JSON (`to_jsonb`): timestamps come as strings. */
function reviveSession(json: Record<string, unknown>): LicenseSession {
  const dates = [
    "activatedAt",
    "leaseExpiresAt",
    "graceExpiresAt",
    "seatHeldUntil",
    "validUntil",
    "lastContactAt",
    "revokedAt",
    "createdAt",
    "updatedAt",
  ] as const;
  const out: Record<string, unknown> = { ...json };
  delete out.fingerprintHash;
  for (const key of dates) out[key] = json[key] == null ? null : new Date(json[key] as string);
  return out as LicenseSession;
}

export const keyReused = () =>
  new AppError("idempotency.key_reused", "This Idempotency-Key was used for a different activation.");

/** PostgreSQL refused a second session with the same Idempotency-Key (a parallel use of one key). */
export function isIdempotencyKeyTaken(error: unknown): boolean {
  const e = error as { code?: string; constraint?: string; message?: string; meta?: unknown } | null;
  if (!e || typeof e !== "object") return false;
  const text = `${e.constraint ?? ""} ${e.message ?? ""} ${JSON.stringify(e.meta ?? null)}`;
  return text.includes("LicenseSession_tenantId_idempotencyKey_key");
}

/**
 * The session an activation Idempotency-Key already made, answered again. The key is scoped to its
 * code (or signed-in user) and fingerprint (docs/security.md "Activation Idempotency-Key"): used by
 * another caller or for another request, it is 409 and never answers the session it made.
 */
export function previousSession(
  facts: NonNullable<ActivationFacts["previous"]>,
  e: Entitlement,
  request: { hash: string; requestHash: string; userId: string | null; codeId: string | null },
): LicenseSession {
  const previous = reviveSession(facts);
  if (
    previous.idempotencyRequestHash !== request.requestHash ||
    previous.activationCodeId !== request.codeId ||
    previous.activatedByUserId !== request.userId ||
    facts.fingerprintHash !== request.hash ||
    previous.entitlementId !== e.id
  )
    throw keyReused();
  if (previous.revokedAt)
    throw new AppError(
      "license.no_active_session",
      "The session this Idempotency-Key created has ended; activate again with a new key.",
    );
  return previous;
}
