import type { Db } from "../../../db/client.ts";
import type { ActivationCode } from "../../../db/generated/client.ts";
import { sqlOf, type Statement } from "../../../db/sql.ts";
import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import {
  counterRows,
  countedRateLimits,
  RATE_LIMIT_ROWS,
  rateLimitCountCte,
  type PendingRateLimits,
} from "../../rate-limits/hit-rate-limits.ts";
import { activationCodeLookupKey, normalizeActivationCode } from "./activation-code-format.ts";

type CodeMatchRow = {
  normalizedCode: string;
  normalizeStripSeparators: boolean;
  normalizeCaseInsensitive: boolean;
  normalizeMapConfusables: boolean;
};

/** Whether the input names this code under the code's own normalization flags. */
export const inputMatchesCode = (input: string, row: CodeMatchRow) =>
  normalizeActivationCode(input, row) === row.normalizedCode;

/**
 * The activation code an anonymous caller typed, across every tenant (activation names no
 * tenant, docs/architecture.md section 5): one query on the service-wide unique `lookupKey`, then the
 * code's own normalization decides. Revoked codes are returned too; the caller decides. The
 * request's rate limits are counted in the same statement (their tenant is the code's), before
 * anything else of the request happens.
 */
export async function findActivationCodeByInput(
  db: Db,
  input: string,
  limits: PendingRateLimits = countedRateLimits,
): Promise<ActivationCode | null> {
  const lookupKey = activationCodeLookupKey(input);
  if (!lookupKey) {
    await limits.enforce();
    return null;
  }
  const [found] = await sqlOf(db).query<{ code: CodeJson | null; limits: CounterJson }>(CODE_BY_LOOKUP_KEY, [
    lookupKey,
    ...limits.values(),
  ]);
  limits.settle(counterRows(found.limits));
  const row = found.code ? reviveCode(found.code) : null;
  return row && row.lookupKey === lookupKey && inputMatchesCode(input, row) ? row : null;
}

type CodeJson = Omit<ActivationCode, "revokedAt" | "createdAt" | "updatedAt"> & Record<string, unknown>;
type CounterJson = Parameters<typeof counterRows>[0];

/** A code row read as JSON (`to_jsonb`): timestamps come as strings. */
const reviveCode = (row: CodeJson): ActivationCode => ({
  ...(row as unknown as ActivationCode),
  revokedAt: row.revokedAt ? new Date(row.revokedAt as string) : null,
  createdAt: new Date(row.createdAt as string),
  updatedAt: new Date(row.updatedAt as string),
});

/**
 * Activation's first read (docs/architecture.md section 11): the code by its service-wide unique lookup key
 * ($1; activation names no tenant, the row does), and the request's rate-limit count
 * (rateLimitCountCte, $2-$10, its tenant found by the same key) in one autocommitted round trip.
 */
const CODE_BY_LOOKUP_KEY: Statement = {
  name: "licensing.activation_code_by_lookup_key",
  text: `WITH ${rateLimitCountCte(2)}
SELECT (SELECT to_jsonb(c) FROM "ActivationCode" c WHERE c."lookupKey" = $1::text) AS code, ${RATE_LIMIT_ROWS} AS limits`,
};

/** The same lookup inside one tenant (operational routes), also accepting the code's id. */
export async function findTenantActivationCode(db: TenantDbOrTx, input: string) {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(input)) {
    const byId = await db.activationCode.findFirst({ where: { id: input.toLowerCase() } });
    if (byId) return byId;
  }
  const lookupKey = activationCodeLookupKey(input);
  if (!lookupKey) return null;
  const row = await db.activationCode.findFirst({ where: { lookupKey } });
  return row && inputMatchesCode(input, row) ? row : null;
}
