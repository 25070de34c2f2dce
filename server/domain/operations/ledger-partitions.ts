import type { Db } from "../../db/client.ts";
import {
  dropMonthPartition,
  ensureMonthPartition,
  listMonthPartitions,
  monthStart,
} from "../../db/month-partitions.ts";
import { foldLedgerPartition } from "../metering/ledger/fold-ledger-partition.ts";

/**
 * The ledgers partitioned by month and the rules that keep them (docs/decisions.md "Ledger
 * partitions", docs/operations.md "Data at scale: retention, partitions and autovacuum"). `ahead`:
 * partitions exist from the current month through `monthsAhead` months later, so an insert never
 * meets a missing month while the worker runs at least once in that time (there is no default
 * partition: it would forbid DETACH CONCURRENTLY and make every new partition scan it). A
 * partition whose every row is older than `retentionMonths` whole months is folded into the
 * counters' ledger bases (server/domain/metering/ledger/fold-ledger-partition.ts), then detached and
 * dropped.
 * The archive of usage records gets its months as rows move into it
 * (server/domain/metering/usage/archive-usage-records.ts), never ahead.
 */
export const LEDGER_PARTITIONED_TABLES = [
  { table: "ConsumeEntry", ahead: true },
  { table: "BalanceHistoryEntry", ahead: true },
  { table: "UsageRecordArchive", ahead: false },
] as const;

export type PartitionPolicy = { monthsAhead: number; retentionMonths: number };

export const DEFAULT_PARTITION_POLICY: PartitionPolicy = { monthsAhead: 3, retentionMonths: 25 };

export type PartitionMaintenance = { created: string[]; dropped: string[] };

/**
 * One maintenance pass over every partitioned ledger at `at`: makes the months ahead, then folds,
 * detaches and drops the months past retention, oldest first. The fold is one transaction; the
 * detach and the drop each run on their own (DETACH … CONCURRENTLY cannot run in one).
 */
export async function maintainLedgerPartitions(
  db: Db,
  at: Date,
  policy: PartitionPolicy = DEFAULT_PARTITION_POLICY,
): Promise<PartitionMaintenance> {
  const created: string[] = [];
  const dropped: string[] = [];
  const keepFrom = monthStart(at, -policy.retentionMonths);
  for (const { table, ahead } of LEDGER_PARTITIONED_TABLES) {
    const partitions = await listMonthPartitions(db, table);
    if (ahead)
      for (let i = 0; i <= policy.monthsAhead; i++) {
        const name = await ensureMonthPartition(db, table, monthStart(at, i), partitions);
        if (name) created.push(name);
      }
    for (const partition of partitions) {
      if (partition.to.getTime() > keepFrom.getTime()) continue;
      await foldLedgerPartition(db, table, partition.name);
      await dropMonthPartition(db, table, partition);
      dropped.push(partition.name);
    }
  }
  return { created, dropped };
}
