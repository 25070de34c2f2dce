import { createHash } from "node:crypto";
import { z } from "zod";
import { joinable, type TenantDb, type TenantTx } from "../db/tenant-db.ts";
import { now } from "../clock.ts";
import { AppError, validationError } from "../core/errors.ts";
import { open, seal } from "../crypto/secret-box.ts";

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const ZIdempotencyKey = z.string().min(1).max(200, "Idempotency-Key is limited to 200 characters.");

export type StoredResponse = { status: number; body: string };

/**
 * The request's Idempotency-Key header: null when absent; 400 `request.validation_failed` when it
 * is empty or longer than 200 characters. Every route that honours the header reads it here.
 */
export function idempotencyKeyOf(req: { headers: Pick<Headers, "get"> }): string | null {
  const raw = req.headers.get("idempotency-key");
  if (raw === null) return null;
  const key = ZIdempotencyKey.safeParse(raw);
  if (!key.success)
    throw validationError(key.error.issues[0].message, [
      { path: "header.Idempotency-Key", message: key.error.issues[0].message },
    ]);
  return key.data;
}

export function requestHash(method: string, path: string, body: unknown): string {
  return createHash("sha256")
    .update(`${method.toUpperCase()} ${path}\n${body === undefined ? "" : JSON.stringify(body)}`)
    .digest("hex");
}

/**
 * Stored responses are sealed with the service secret (docs/security.md "Idempotency records"):
 * some carry secrets (webhook signing secrets, license tokens, offline artifacts) that must not
 * sit readable in the database for the 24 hours a record is kept. A record written before
 * sealing (plain JSON, never starting with the sealed format's "v1.") is replayed as it is.
 */
const openResponse = (stored: string) => (stored.startsWith("v1.") ? open(stored) : stored);

/**
 * Runs a mutation at most once per (tenant, credential, key). The record is written in the same
 * transaction as the change, under an advisory lock on the key, so a parallel duplicate waits
 * for the first and then gets its stored response; a crash leaves neither. A refused request
 * (a thrown problem) rolls back and stores nothing, so it can be corrected and retried.
 */
export async function runIdempotent(
  db: TenantDb,
  scope: { tenantId: string; credentialId: string; key: string; hash: string },
  run: (tx: TenantTx) => Promise<StoredResponse>,
): Promise<StoredResponse & { replayed: boolean }> {
  return db.$transaction(
    async (rawTx) => {
      const tx = joinable(rawTx);
      const lockKey = `${scope.tenantId}:${scope.credentialId}:${scope.key}`;
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${lockKey}, 7))`;
      const where = {
        tenantId_credentialId_key: {
          tenantId: scope.tenantId,
          credentialId: scope.credentialId,
          key: scope.key,
        },
      };
      const existing = await tx.idempotencyRecord.findUnique({ where });
      if (existing && existing.expiresAt > now()) {
        if (existing.requestHash !== scope.hash) {
          throw new AppError(
            "idempotency.key_reused",
            "This Idempotency-Key was already used for a different request.",
          );
        }
        return { status: existing.responseStatus, body: openResponse(existing.responseBody), replayed: true };
      }
      if (existing) await tx.idempotencyRecord.delete({ where });
      const response = await run(tx);
      await tx.idempotencyRecord.create({
        data: {
          tenantId: scope.tenantId,
          credentialId: scope.credentialId,
          key: scope.key,
          requestHash: scope.hash,
          responseStatus: response.status,
          responseBody: seal(response.body),
          expiresAt: new Date(now().getTime() + IDEMPOTENCY_TTL_MS),
        },
      });
      return { ...response, replayed: false };
    },
    { timeout: 30_000, maxWait: 15_000 },
  );
}
