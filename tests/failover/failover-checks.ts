// What the failover test asserts beyond the cluster test's checks: how soon the service answered
// again after each kill, that each killed leader came back as the synchronous standby (pg_rewind
// by Patroni when its history had diverged), and that the standby holds the same rows as the
// leader: what synchronous replication promises for every acknowledged commit.
import pg from "pg";
import type { Check } from "../cluster/checks.ts";
import { failed, type Call } from "../cluster/client.ts";
import type { Window } from "../cluster/faults.ts";
import { waitFor } from "../cluster/shell.ts";
import { leaderOf, PG_PORT, rewindLines, type Member, type PgNode } from "./patroni.ts";

/** A kill under load and what followed it, for the recovery check. */
export type Outage = {
  label: string;
  killedAt: number;
  /** When a primary was back: the standby's Patroni answering /primary 200, or the restarted postmaster up. */
  primaryAt: number;
  /** When HAProxy's database listener had that primary UP. */
  routedAt: number;
  window?: Window;
};
export type Failover = Outage & { from: string; to: string; rejoined: Member[] };

const seconds = (ms: number) => Math.round(ms / 100) / 10;

export function recoveryCheck(calls: Call[], f: Outage, boundMs: number): Check {
  const w = f.window!;
  const attempts = calls.flatMap((c) => c.attempts).filter((a) => a.at >= w.start && a.at <= w.end);
  const bad = attempts.filter(failed);
  const lastFailed = bad.length ? Math.max(...bad.map((a) => a.at)) : f.killedAt;
  const recovered = attempts.filter((a) => a.status === 200 && a.at >= lastFailed).map((a) => a.at);
  const recoveredAt = recovered.length ? Math.min(...recovered) : Number.POSITIVE_INFINITY;
  const byCode: Record<string, number> = {};
  for (const a of bad) {
    const key =
      a.status === 0 ? a.error! : `${a.status} ${a.codeName ?? ""}${a.fromLb ? " (haproxy)" : ""}`.trim();
    byCode[key] = (byCode[key] ?? 0) + 1;
  }
  return {
    name: `${f.label}: the service answers 200 again within ${boundMs / 1000} s of the kill`,
    ok: recoveredAt - f.killedAt <= boundMs,
    figures: {
      attempts: attempts.length,
      failedAttempts: bad.length,
      failures: byCode,
      switchWindow: bad.length
        ? `${seconds(Math.min(...bad.map((a) => a.at)) - f.killedAt)}–${seconds(lastFailed - f.killedAt)} s after the kill`
        : "no failed attempt",
      primaryAfter: seconds(f.primaryAt - f.killedAt),
      routedAfter: seconds(f.routedAt - f.killedAt),
      answers200AgainAfter: seconds(recoveredAt - f.killedAt),
    },
  };
}

export function rejoinCheck(f: Failover, logDir: string): Check {
  const me = f.rejoined.find((m) => m.name === f.from);
  const leader = f.rejoined.find((m) => m.role === "leader");
  const rewind = rewindLines({ name: f.from, namespace: "", address: "" }, logDir);
  return {
    name: `the old leader ${f.from} rejoined as the synchronous standby of ${f.to}`,
    ok: me?.role === "sync_standby" && leader?.name === f.to && me.timeline === leader.timeline,
    figures: {
      members: f.rejoined.map(
        (m) => `${m.name} ${m.role} ${m.state} timeline ${m.timeline} lag ${m.lag ?? "-"}`,
      ),
      pgRewind: rewind.filter((l) => /exit code|Done!|diverged|failed/i.test(l)).slice(-3),
    },
  };
}

const TABLES = [
  "LicenseSession",
  "ConsumeEntry",
  "UsageRecord",
  "ActivationCode",
  "MeterPeriod",
  "WebhookEnvelope",
];

/** Rows of the tenant in the leader's and the standby's database, once the standby has replayed all the leader wrote. */
export async function replicaCheck(nodes: PgNode[], database: string, tenantId: string): Promise<Check> {
  const leader = (await leaderOf(nodes))!;
  const standby = nodes.find((n) => n !== leader)!;
  const connect = async (node: PgNode) => {
    const c = new pg.Client({ host: node.address, port: PG_PORT, user: "postgres", database });
    await c.connect();
    return c;
  };
  const [primary, replica] = [await connect(leader), await connect(standby)];
  try {
    const lsn = (await primary.query("SELECT pg_current_wal_lsn() AS lsn")).rows[0].lsn as string;
    await waitFor(
      "the standby to replay the leader's WAL",
      async () =>
        (await replica.query("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS done", [lsn])).rows[0].done ===
        true,
      30_000,
    );
    const counts = async (c: pg.Client) => {
      const out: Record<string, number> = {};
      for (const t of TABLES)
        out[t] = Number(
          (await c.query(`SELECT count(*) AS n FROM "${t}" WHERE "tenantId" = $1`, [tenantId])).rows[0].n,
        );
      return out;
    };
    const [a, b] = [await counts(primary), await counts(replica)];
    return {
      name: `the standby ${standby.name} holds the same rows as the leader ${leader.name}`,
      ok: TABLES.every((t) => a[t] === b[t]),
      figures: { leader: a, standby: b },
    };
  } finally {
    await primary.end().catch(() => undefined);
    await replica.end().catch(() => undefined);
  }
}
