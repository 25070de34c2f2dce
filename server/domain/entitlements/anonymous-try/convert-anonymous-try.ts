import type { DomainContext } from "../../context.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { lockEditableEntitlement } from "../entitlement/entitlement-lock.ts";
import { readEntitlement } from "../entitlement/entitlement-response.ts";

/**
 * An anonymous try converts when its user registers or buys (docs/api.md `convertedToEntitlementId`):
 * the try records the entitlement it became and is no longer due for purge (a converted try is
 * the customer's history). The try keeps running until its own end; the device activates the new
 * entitlement with its code. Converting again to the same entitlement changes nothing; to another
 * one is a conflict. Emits nothing (docs/api.md names no event for it).
 */
export async function convertAnonymousTry(ctx: DomainContext, tryId: string, targetId: string) {
  return inTransaction(ctx.db, async (tx) => {
    const anonymousTry = await lockEditableEntitlement(tx, ctx.tenantId, tryId);
    if (!anonymousTry.isAnonymousTry)
      throw new AppError("anonymous_try.not_anonymous_try", `Entitlement ${tryId} is not an anonymous try.`);
    if (anonymousTry.convertedToEntitlementId === targetId) return (await readEntitlement(tx, tryId))!;
    if (anonymousTry.convertedToEntitlementId)
      throw new AppError(
        "anonymous_try.already_converted",
        `The anonymous try was converted to entitlement ${anonymousTry.convertedToEntitlementId}.`,
      );
    const target = await tx.entitlement.findUnique({
      where: { id: targetId },
      select: { id: true, status: true, isAnonymousTry: true },
    });
    if (!target) throw notFound(`Entitlement ${targetId}`);
    if (target.id === tryId || target.isAnonymousTry || target.status === "Archived")
      throw new AppError(
        "anonymous_try.invalid_conversion_target",
        "An anonymous try converts to another, registered entitlement that is not archived.",
      );
    await tx.entitlement.update({
      where: { id: tryId },
      data: {
        convertedToEntitlementId: targetId,
        anonymousTryPurgeDueAt: null,
        revisionNumber: { increment: 1 },
      },
    });
    return (await readEntitlement(tx, tryId))!;
  });
}
