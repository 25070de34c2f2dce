import type { Db } from "../../../db/client.ts";
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
export async function findActivationCodeByInput(db: Db, input: string) {
  const lookupKey = activationCodeLookupKey(input);
  if (!lookupKey) return null;
  const row = await db.activationCode.findUnique({ where: { lookupKey } });
  return row && inputMatchesCode(input, row) ? row : null;
}

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
