import type { DomainContext } from "../../context.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { renewEntitlementTo } from "./renew-entitlement.ts";
import { extendedEnd } from "./renewal-extension.ts";
import type { TEntitlementBulkRenewRequest, TEntitlementBulkRenewResult } from "./renewal.schemas.ts";

/**
 * The entitlements list's "Extend selected" (docs/decisions.md "Bulk extend"): each selected
 * entitlement is renewed exactly as the single Renew does, in its own transaction, so one that is
 * refused (a Draft, one that never expires, an end that would move earlier) leaves the others
 * renewed and comes back with its refusal. Every id must be one of the tenant's entitlements, or
 * nothing is renewed: 404, as for a single renewal of an unknown id.
 */
export async function renewEntitlements(
  ctx: DomainContext,
  input: TEntitlementBulkRenewRequest,
): Promise<TEntitlementBulkRenewResult> {
  const rows = await ctx.db.entitlement.findMany({
    where: { id: { in: input.ids } },
    select: { id: true, name: true, expirationDateTime: true },
  });
  const byId = new Map(rows.map((r) => [r.id, r]));
  if (input.ids.some((id) => !byId.has(id))) throw notFound("Entitlement");

  const results: TEntitlementBulkRenewResult["results"] = [];
  for (const id of input.ids) {
    const before = byId.get(id)!;
    try {
      const renewed = await renewEntitlementTo(ctx, id, (end) => extendedEnd(input.extension, end));
      results.push({
        id,
        name: renewed.name,
        outcome:
          renewed.expirationDateTime === before.expirationDateTime?.toISOString() ? "Unchanged" : "Renewed",
        expirationDateTime: renewed.expirationDateTime,
        refusal: null,
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push({
        id,
        name: before.name,
        outcome: "Refused",
        expirationDateTime: before.expirationDateTime?.toISOString() ?? null,
        refusal: { codeName: error.codeName, status: error.status, detail: error.message },
      });
    }
  }
  return { results };
}
