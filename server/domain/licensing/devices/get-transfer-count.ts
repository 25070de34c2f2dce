import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";

/** The entitlement's transferCount (device resets so far), for the devices panel. */
export async function getTransferCount(
  ctx: DomainContext,
  entitlementId: string,
): Promise<{ entitlementId: string; transferCount: number }> {
  const row = await ctx.db.entitlement.findFirst({
    where: { id: entitlementId },
    select: { transferCount: true },
  });
  if (!row) throw notFound("Entitlement");
  return { entitlementId, transferCount: row.transferCount };
}
