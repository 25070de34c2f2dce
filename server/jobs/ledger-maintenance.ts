import type { Task } from "graphile-worker";
import { db } from "../db/client.ts";
import { now } from "../clock.ts";
import { ledgerRetentionMonths } from "../config.ts";
import {
  DEFAULT_PARTITION_POLICY,
  maintainLedgerPartitions,
} from "../domain/operations/ledger-partitions.ts";
import { archiveUsageRecords } from "../domain/metering/usage/archive-usage-records.ts";

/**
 * Cron task (hourly, see server/worker.ts; docs/operations.md "Data at scale: retention, partitions
 * and autovacuum"): the usage records that can no longer count move to the archive, the ledgers'
 * months ahead are made, and months past retention are detached and dropped. Hourly so that a
 * worker down for hours still leaves months of partitions ahead; a pass with nothing to do reads
 * the catalog and writes nothing.
 */
export const ledger_maintenance: Task = async (_payload, helpers) => {
  const at = now();
  const archived = await archiveUsageRecords(db(), at);
  const partitions = await maintainLedgerPartitions(db(), at, {
    ...DEFAULT_PARTITION_POLICY,
    retentionMonths: ledgerRetentionMonths(),
  });
  const created = [...archived.partitionsCreated, ...partitions.created];
  if (created.length || partitions.dropped.length || archived.moved)
    helpers.logger.info(
      `ledgers: ${created.length} partition(s) made (${created.join(", ")}), ${archived.moved} usage record(s) archived, ${partitions.dropped.length} partition(s) dropped (${partitions.dropped.join(", ")})`,
    );
};
