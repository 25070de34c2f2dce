import type { Db } from "./client.ts";

/**
 * Tables partitioned by UTC month (docs/decisions.md "Ledger partitions"): listing their months,
 * making one, and detaching and dropping one. Names and bounds are made here from the table's
 * name (a constant of the caller) and dates, never from input.
 */
export type PartitionDb = Pick<Db, "$queryRawUnsafe" | "$executeRawUnsafe">;

export type MonthPartition = { name: string; from: Date | null; to: Date; detachPending: boolean };

/** A table's partitions with their bounds, read back in the same session so the time zone agrees. */
const PARTITIONS_SQL = `
  SELECT c.relname AS name, i.inhdetachpending AS "detachPending",
         (regexp_match(b.bound, 'FROM \\(''([^'']+)''\\)'))[1]::timestamptz AS "from",
         (regexp_match(b.bound, 'TO \\(''([^'']+)''\\)'))[1]::timestamptz AS "to"
  FROM pg_inherits i
  JOIN pg_class c ON c.oid = i.inhrelid
  CROSS JOIN LATERAL (SELECT pg_get_expr(c.relpartbound, c.oid) AS bound) b
  WHERE i.inhparent = $1::regclass
  ORDER BY 4`;

export function listMonthPartitions(db: PartitionDb, table: string): Promise<MonthPartition[]> {
  return db.$queryRawUnsafe<MonthPartition[]>(PARTITIONS_SQL, `"${table}"`);
}

/** The first instant of the UTC month of `at`, moved by `months`. */
export function monthStart(at: Date, months = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1));
}

/** `ConsumeEntry_p2027_01`: the partition of the month starting at `month`. */
export function monthPartitionName(table: string, month: Date): string {
  return `${table}_p${month.getUTCFullYear()}_${String(month.getUTCMonth() + 1).padStart(2, "0")}`;
}

const covers = (p: MonthPartition, from: Date, to: Date) =>
  (p.from === null || p.from.getTime() <= from.getTime()) && p.to.getTime() >= to.getTime();

/** Makes the month of `table` starting at `month` unless a partition already covers it; its name if made. */
export async function ensureMonthPartition(
  db: PartitionDb,
  table: string,
  month: Date,
  existing?: MonthPartition[],
): Promise<string | null> {
  const to = monthStart(month, 1);
  const partitions = existing ?? (await listMonthPartitions(db, table));
  if (partitions.some((p) => covers(p, month, to))) return null;
  const name = monthPartitionName(table, month);
  await db.$executeRawUnsafe(
    `CREATE TABLE IF NOT EXISTS "${name}" PARTITION OF "${table}" FOR VALUES FROM ('${month.toISOString()}') TO ('${to.toISOString()}')`,
  );
  return name;
}

/**
 * Detaches `partition` from `table` and drops it. Outside any transaction (DETACH … CONCURRENTLY
 * cannot run in one): writers of the other months never wait. A detach interrupted half-way (a
 * worker stopped mid-run) is finished, not restarted.
 */
export async function dropMonthPartition(db: PartitionDb, table: string, partition: MonthPartition) {
  await db.$executeRawUnsafe(
    `ALTER TABLE "${table}" DETACH PARTITION "${partition.name}" ${partition.detachPending ? "FINALIZE" : "CONCURRENTLY"}`,
  );
  await db.$executeRawUnsafe(`DROP TABLE "${partition.name}"`);
}
