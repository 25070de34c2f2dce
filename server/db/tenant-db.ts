import type { Db } from "./client.ts";
import { retryOnConflict } from "./errors.ts";

/** Models that belong to no tenant. Every other model is tenant-owned: fail closed. */
const globalModels = new Set(["Tenant", "PlatformKey", "WorkerHeartbeat", "RateLimitCounter", "LedgerFold"]);

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

/** Clients made by tenantDb (isTenantScoped), with the client each narrows. */
const scopedClients = new WeakMap<object, Db>();

/** Tenant clients made per base client, by tenant: a client is immutable, so one serves every request. */
const tenantClients = new WeakMap<Db, Map<string, ReturnType<typeof scopeToTenant>>>();
/** At most this many tenants' clients are held per base client; the oldest entry makes room. */
const MAX_TENANT_CLIENTS = 10_000;

/**
 * A Prisma client that can only see and write rows of one tenant: every query on a tenant-owned
 * model gets `tenantId` in its where clause and every created row gets it in its data, so an id of
 * another tenant behaves exactly like an unknown id. Raw SQL is not covered and must filter itself.
 * Made once per tenant (extending a client costs more than a runtime call's own work).
 */
export function tenantDb(base: Db, tenantId: string) {
  let byTenant = tenantClients.get(base);
  if (!byTenant) tenantClients.set(base, (byTenant = new Map()));
  let scoped = byTenant.get(tenantId);
  if (!scoped) {
    scoped = scopeToTenant(base, tenantId);
    byTenant.set(tenantId, scoped);
    if (byTenant.size > MAX_TENANT_CLIENTS) byTenant.delete(byTenant.keys().next().value as string);
  }
  return scoped;
}

function scopeToTenant(base: Db, tenantId: string) {
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
  scopedClients.set(scoped, base);
  return scoped;
}

export type TenantDb = ReturnType<typeof tenantDb>;
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

/** The client a tenant client narrows (a client itself otherwise). */
export const baseOf = (db: object): Db | undefined => scopedClients.get(db) ?? (db as Db);

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
