import type { Task } from "graphile-worker";
import { z } from "zod";
import { db } from "../db/client.ts";
import { purgeAnonymousTries } from "../domain/cross-tenant.ts";

/** The crontab schedules it without a payload; a queued run may narrow the batches. */
const ZPurgePayload = z
  .object({
    batchSize: z.number().int().positive().optional(),
    rowBudget: z.number().int().positive().optional(),
    maxTransactions: z.number().int().positive().optional(),
  })
  .catch({});

/** Cron task (see server/worker.ts): deletes anonymous tries past their purge date that never converted. */
export const anonymous_try_purge: Task = async (payload, helpers) => {
  const { purged, transactions } = await purgeAnonymousTries(db(), ZPurgePayload.parse(payload ?? {}));
  if (purged > 0)
    helpers.logger.info(
      `purged ${purged} anonymous tr${purged === 1 ? "y" : "ies"} in ${transactions} transaction${transactions === 1 ? "" : "s"}`,
    );
};
