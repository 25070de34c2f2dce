import type { Db } from "./client.ts";
import { retryOnConflict } from "./errors.ts";

/** Models that belong to no tenant. Every other model is tenant-owned: fail closed. */
const globalModels = new Set(["Tenant", "PlatformKey", "WorkerHeartbeat", "RateLimitCounter"]);

const whereOperations = new Set([
  "findUnique",
  "findUniqueOrThrow",
  "findFirst",
  "findFirstOrThrow",
  "findMany",
  "count",
  "aggregate",
  "groupBy",
  "update",
  "updateMany",
  "updateManyAndReturn",
  "delete",
  "deleteMany",
  "upsert",
]);
const dataOperations = new Set(["create", "createMany", "createManyAndReturn"]);

type Args = { where?: object; data?: object | object[]; create?: object };

/** Clients made by tenantDb (isTenantScoped). */
const scopedClients = new WeakSet<object>();

/**
 * A Prisma client that can only see and write rows of one tenant: every query on a tenant-owned
 * model gets `tenantId` in its where clause and every created row gets it in its data, so an id of
 * another tenant behaves exactly like an unknown id. Raw SQL is not covered and must filter itself.
 */
export function tenantDb(base: Db, tenantId: string) {
  let clients = madeFor.get(base);
  if (!clients) madeFor.set(base, (clients = new Map()));
  const made = clients.get(tenantId);
  if (made) return made;
  const scoped = scopeTo(base, tenantId);
  // The client is immutable: kept per tenant, so a request does not build one (runtime requests mostly never query with it).
  if (clients.size >= MAX_KEPT_TENANTS) clients.delete(clients.keys().next().value!);
  clients.set(tenantId, scoped);
  return scoped;
}

function scopeTo(base: Db, tenantId: string) {
  const scoped = base.$extends({
    name: "tenant-scope",
    query: {
      $allModels: {
        $allOperations({ model, operation, args, query }) {
          if (globalModels.has(model)) return query(args);
          const scoped = { ...(args as Args) };
          if (whereOperations.has(operation)) scoped.where = { ...scoped.where, tenantId };
          if (operation === "upsert") scoped.create = { ...scoped.create, tenantId };
          if (dataOperations.has(operation)) {
            scoped.data = Array.isArray(scoped.data)
              ? scoped.data.map((row) => ({ ...row, tenantId }))
              : { ...scoped.data, tenantId };
          }
          return query(scoped as typeof args);
        },
      },
    },
  });
  scopedClients.add(scoped);
  return scoped;
}

export type TenantDb = ReturnType<typeof scopeTo>;
const madeFor = new WeakMap<Db, Map<string, TenantDb>>();
const MAX_KEPT_TENANTS = 1_000;
/** The client inside an interactive transaction of a TenantDb. */
export type TenantTx = Parameters<Parameters<TenantDb["$transaction"]>[0]>[0];
/** Either, for domain functions that run standalone or inside a caller's transaction. */
export type TenantDbOrTx = TenantDb | TenantTx;

/**
 * Transaction clients opened by this service. Prisma's transaction client also has `$transaction`
 * (it opens a SAVEPOINT), so "is this already a transaction?" is answered by this mark instead:
 * a nested domain call joins its caller's transaction without two extra round trips.
 */
const openTransactions = new WeakSet<object>();

/** Marks a transaction client that a caller opened with `$transaction` itself, so nested calls join it. */
export function joinable<T extends object>(tx: T): T {
  openTransactions.add(tx);
  return tx;
}

/** Whether `db` is already narrowed to one tenant: a tenant client, or a transaction this service opened on one. */
export const isTenantScoped = (db: object): boolean => scopedClients.has(db) || openTransactions.has(db);

/** Whether `db` is a transaction a caller opened (its work joins it rather than opening its own). */
export const isOpenTransaction = (db: object): boolean => openTransactions.has(db);

/**
 * Runs `fn` in a transaction, or inside the caller's when `db` already is one (`timeoutMs`, default
 * 15 s, bounds a transaction of its own; a caller's keeps its own limit). With `retryOnConflict`, a transaction of its own that PostgreSQL aborts as a deadlock or
 * serialization victim is run again (a caller's transaction is the caller's to retry).
 */
export async function inTransaction<T>(
  db: TenantDbOrTx,
  fn: (tx: TenantTx) => Promise<T>,
  options: { retryOnConflict?: boolean; timeoutMs?: number } = {},
): Promise<T> {
  if (openTransactions.has(db) || !("$transaction" in db)) return fn(db as TenantTx);
  const timeout = options.timeoutMs ?? 15_000;
  const run = () => db.$transaction((tx) => fn(joinable(tx)), { timeout, maxWait: 10_000 });
  return options.retryOnConflict ? retryOnConflict(run) : run();
}
