import type pg from "pg";

/**
 * The ledgers partitioned by month (docs/decisions.md "Ledger partitions", docs/operations.md "Data
 * at scale: retention, partitions and autovacuum"). `ahead`: partitions exist from the current
 * month through `monthsAhead` months later, so an insert never meets a missing month while the
 * worker runs at least once in that time (there is no default partition: it would forbid
 * DETACH CONCURRENTLY and make every new partition scan it). `retained`: a partition whose every
 * row is older than `retentionMonths` whole months is detached (CONCURRENTLY: writers to the other
 * partitions never wait) and dropped. The archive of usage records gets its months as rows are
 * moved into it (server/domain/metering/usage/archive-usage-records.ts), never ahead.
 */
export const LEDGER_PARTITIONED_TABLES = [
  { table: "ConsumeEntry", ahead: true },
  { table: "BalanceHistoryEntry", ahead: true },
  { table: "UsageRecordArchive", ahead: false },
] as const;

export type LedgerTable = (typeof LEDGER_PARTITIONED_TABLES)[number]["table"];

export type PartitionPolicy = { monthsAhead: number; retentionMonths: number };

export const DEFAULT_PARTITION_POLICY: PartitionPolicy = { monthsAhead: 3, retentionMonths: 25 };

export type LedgerPartition = { name: string; from: Date | null; to: Date; detachPending: boolean };

export type PartitionMaintenance = { created: string[]; dropped: string[] };

type Queryable = Pick<pg.ClientBase, "query">;

/** Partitions of `table` with their bounds; read back in the same session so the time zone agrees. */
const PARTITIONS_SQL = `
  SELECT c.relname AS name, i.inhdetachpending AS "detachPending",
         (regexp_match(b.bound, 'FROM \\(''([^'']+)''\\)'))[1]::timestamptz AS "from",
         (regexp_match(b.bound, 'TO \\(''([^'']+)''\\)'))[1]::timestamptz AS "to"
  FROM pg_inherits i
  JOIN pg_class c ON c.oid = i.inhrelid
  CROSS JOIN LATERAL (SELECT pg_get_expr(c.relpartbound, c.oid) AS bound) b
  WHERE i.inhparent = $1::regclass
  ORDER BY 4`;

export async function listLedgerPartitions(db: Queryable, table: LedgerTable): Promise<LedgerPartition[]> {
  const { rows } = await db.query<LedgerPartition>(PARTITIONS_SQL, [`"${table}"`]);
  return rows;
}

/** The first instant of the UTC month of `at`, moved by `months`. */
export function monthStart(at: Date, months = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));
}

/** `ConsumeEntry_p2027_01`: the partition of the month starting at `month`. */
export function partitionName(table: LedgerTable, month: Date): string {
  return `${table}_p${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, "0")}`;
}

const covers = (p: LedgerPartition, from: Date, to: Date) =>
  (p.from === null || p.from.getTime() <= from.getTime()) && p.to.getTime() >= to.getTime();

/**
 * Creates the month of `table` starting at `month` unless a partition already covers it. Run in
 * autocommit or in the caller's transaction; names and bounds are made here, never from input.
 */
export async function ensureMonthPartition(
  db: Queryable,
  table: LedgerTable,
  month: Date,
  existing?: LedgerPartition[],
): Promise<string | null> {
  const to = monthStart(month, 1);
  const partitions = existing ?? (await listLedgerPartitions(db, table));
  if (partitions.some((p) => covers(p, month, to))) return null;
  const name = partitionName(table, month);
  await db.query(
    `CREATE TABLE IF NOT EXISTS "${name}" PARTITION OF "${table}" FOR VALUES FROM ('${month.toISOString()}') TO ('${to.toISOString()}')`,
  );
  return name;
}

/**
 * One maintenance pass over every partitioned ledger at `at`: creates the months ahead, then
 * detaches and drops the partitions past retention. `db` must be a connection in autocommit
 * (DETACH … CONCURRENTLY cannot run inside a transaction block).
 */
export async function maintainLedgerPartitions(
  db: Queryable,
  at: Date,
  policy: PartitionPolicy = DEFAULT_PARTITION_POLICY,
): Promise<PartitionMaintenance> {
  const created: string[] = [];
  const dropped: string[] = [];
  const keepFrom = monthStart(at, -policy.retentionMonths);
  for (const { table, ahead } of LEDGER_PARTITIONED_TABLES) {
    const partitions = await listLedgerPartitions(db, table);
    if (ahead)
      for (let i = 0; i <= policy.monthsAhead; i++) {
        const name = await ensureMonthPartition(db, table, monthStart(at, i), partitions);
        if (name) created.push(name);
      }
    for (const p of partitions) {
      if (p.to.getTime() > keepFrom.getTime()) continue;
      // A detach interrupted half-way (a worker stopped mid-run) is finished, not restarted.
      await db.query(
        `ALTER TABLE "${table}" DETACH PARTITION "${p.name}" ${p.detachPending ? "FINALIZE" : "CONCURRENTLY"}`,
      );
      await db.query(`DROP TABLE "${p.name}"`);
      dropped.push(p.name);
    }
  }
  return { created, dropped };
}
