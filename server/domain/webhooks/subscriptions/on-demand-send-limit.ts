import type { DomainContext } from "../../context.ts";
import { AppError } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { now } from "../../../clock.ts";
import { ON_DEMAND_SENDS_PER_MINUTE } from "../delivery/settings.ts";

const WINDOW_MS = 60_000;

/**
 * docs/security.md "Webhooks": test-fires and verifications are sends a caller asks for; each
 * subscription gets ON_DEMAND_SENDS_PER_MINUTE of them per sliding minute, whoever asks (both
 * surfaces, every web process: counted in PostgreSQL under a lock, docs/architecture.md section 12, in the
 * ledger the replay ceiling uses). Beyond it: 429 `subscription.send_rate_limited` with
 * `Retry-After`. Counts the send before it happens, so parallel requests cannot slip past.
 */
export async function spendOnDemandSend(ctx: DomainContext, subscriptionId: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const key = `on-demand-send:${subscriptionId}`;
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`${ctx.tenantId}:${key}`}, 12))`;
    const at = now();
    const recent = await tx.webhookReplayLedgerEntry.findMany({
      where: { principalKey: key, createdAt: { gt: new Date(at.getTime() - WINDOW_MS) } },
      select: { createdAt: true },
      orderBy: { createdAt: "asc" },
    });
    if (recent.length >= ON_DEMAND_SENDS_PER_MINUTE) {
      const retryAfter = Math.max(
        1,
        Math.ceil((recent[0].createdAt.getTime() + WINDOW_MS - at.getTime()) / 1000),
      );
      throw new AppError(
        "subscription.send_rate_limited",
        `A subscription takes at most ${ON_DEMAND_SENDS_PER_MINUTE} test-fires and verifications per minute; try again in ${retryAfter} s.`,
        { headers: { "retry-after": String(retryAfter) } },
      );
    }
    await tx.webhookReplayLedgerEntry.create({
      data: { tenantId: ctx.tenantId, principalKey: key, envelopeCount: 1, createdAt: at },
    });
  });
}
