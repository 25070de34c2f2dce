import { isProcessDb, type Db } from "../../../db/client.ts";
import type { ActivationCode } from "../../../db/generated/client.ts";
import { pgPool } from "../../../db/pool.ts";
import type { Statement } from "../../../db/sql.ts";
import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
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
 * tenant, DESIGN.md section 5): one query on the service-wide unique `lookupKey`, then the
 * code's own normalization decides. Revoked codes are returned too; the caller decides.
 */
export async function findActivationCodeByInput(
  db: Db,
  input: string,
  /** The row already read by this input's lookup key (the rate limiter's statement), if any. */
  read?: ActivationCode | null,
): Promise<ActivationCode | null> {
  const lookupKey = activationCodeLookupKey(input);
  if (!lookupKey) return null;
  // Activation's first read (DESIGN.md section 11): a named statement on the process pool, no
  // Prisma query building on the hot path. A client with a pool of its own (a script's, a test's)
  // reads on its own connections.
  const row =
    read !== undefined
      ? read
      : isProcessDb(db)
        ? ((await pgPool().query<ActivationCode>({ ...CODE_BY_LOOKUP_KEY, values: [lookupKey] })).rows[0] ??
          null)
        : await db.activationCode.findUnique({ where: { lookupKey } });
  return row && row.lookupKey === lookupKey && inputMatchesCode(input, row) ? row : null;
}

/** The code by its service-wide unique lookup key: activation names no tenant, the row does. */
const CODE_BY_LOOKUP_KEY: Statement = {
  name: "licensing.activation_code_by_lookup_key",
  text: `SELECT * FROM "ActivationCode" WHERE "lookupKey" = $1::text`,
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
