import type { Db } from "../../../db/client.ts";
import { now } from "../../../clock.ts";

/**
 * The lease sweeper (worker job `license_lease_sweep`, every minute): sessions whose grace has run
 * out end with revocationReason `LeaseExpired`, silently (docs/api.md: "A seat whose lease runs out
 * emits nothing"). Seats are already free once the lease ends (activation counts only sessions
 * whose seatHeldUntil is ahead), so a late sweep never blocks an activation. Runs across tenants
 * in batches; returns how many sessions ended.
 */
export async function sweepExpiredLeases(db: Db, batchSize = 1000): Promise<number> {
  let total = 0;
  for (;;) {
    const at = now();
    const ended = await db.$executeRaw`
      UPDATE "LicenseSession" SET "revokedAt" = ${at}, "revocationReason" = 'LeaseExpired', "updatedAt" = ${at}
      WHERE id IN (
        SELECT id FROM "LicenseSession" WHERE "revokedAt" IS NULL AND "graceExpiresAt" <= ${at}
        ORDER BY "graceExpiresAt" LIMIT ${batchSize} FOR UPDATE SKIP LOCKED)`;
    total += ended;
    if (ended < batchSize) return total;
  }
}
