// HAProxy's database listener: the service's DATABASE_URL names it, not a PostgreSQL node. It
// sends each new connection to the node whose Patroni answers GET /primary 200 (only the leader
// holding the key in etcd does), and when a node is marked down it cuts that node's open
// sessions (on-marked-down shutdown-sessions), so no pool keeps talking to a former leader.
import { PG_PORT, PG_REST_CHECK, REST_PORT, type PgNode } from "./patroni.ts";

export const DB_PORT = 5000;

export function databaseListener(address: string, nodes: PgNode[]): string {
  return `
listen db
  mode tcp
  bind ${address}:${DB_PORT}
  option tcplog
  # A pool's idle connection lives as long as the pool wants: PostgreSQL sessions are long.
  timeout client 1h
  timeout server 1h
  option httpchk GET ${PG_REST_CHECK}
  http-check expect status 200
  # Every second: a dead leader is out after 2 failed checks, the new one in after 1 passed.
  default-server inter 1s fall 2 rise 1 on-marked-down shutdown-sessions
${nodes.map((n) => `  server ${n.name} ${n.address}:${PG_PORT} check port ${REST_PORT}`).join("\n")}
`;
}
