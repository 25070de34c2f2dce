import type { DomainContext } from "../../context.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { drawnOnAssetWhere } from "./monitored-asset-rules.ts";

/**
 * DELETE /admin/asset-balances/{balanceId} (docs/api.md "States and transitions"): a product's
 * balance is deleted, always (copies held by entitlements and offers are separate rows and stay);
 * a copy held by a Draft or Published entitlement or offer is refused because metering draws on
 * it. The delete itself carries the rule, so a concurrent owner change cannot slip between a
 * check and the delete.
 */
export async function deleteAssetBalance(ctx: DomainContext, balanceId: string): Promise<void> {
  const { count } = await ctx.db.balanceUsage.deleteMany({
    where: { id: balanceId, NOT: { monitoredAsset: drawnOnAssetWhere } },
  });
  if (count > 0) return;
  const balance = await ctx.db.balanceUsage.findUnique({
    where: { id: balanceId },
    select: { monitoredAsset: { select: { ownerKind: true, ownerStatus: true } } },
  });
  if (!balance) throw notFound("Asset balance");
  const owner = balance.monitoredAsset;
  throw new AppError(
    "asset.balance_in_use",
    `The balance belongs to a ${owner.ownerStatus} ${owner.ownerKind.toLowerCase()}; metering draws on it, so it cannot be deleted.`,
  );
}
