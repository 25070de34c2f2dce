import type { DomainContext } from "../../context.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";

/**
 * docs/api.md "Add-on" rows of DELETE: a Draft that no entitlement or offer holds a grant of is
 * removed (204); any other add-on, or a Draft with grants (revoked or expired ones count: they are
 * history), is refused with 400: archive it instead. The row is locked so a grant written
 * concurrently waits (grants reference the add-on with a RESTRICT foreign key as well).
 */
export async function deleteAddOn(ctx: DomainContext, id: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const [row] = await tx.$queryRaw<{ status: string }[]>`
      SELECT status FROM "AddOn" WHERE "tenantId" = ${ctx.tenantId}::uuid AND id = ${id}::uuid FOR UPDATE`;
    if (!row) throw notFound("Add-on");
    if (row.status !== "Draft")
      throw new AppError(
        "add_on.delete_refused",
        `Only a Draft add-on can be deleted; this one is ${row.status}.`,
      );
    const grants = await tx.addOnGrant.count({ where: { addOnId: id } });
    if (grants > 0) {
      throw new AppError(
        "add_on.delete_refused",
        `${grants} grant(s) of this add-on exist (revoked and expired ones included); archive it instead.`,
      );
    }
    await tx.addOn.delete({ where: { id } });
  });
}
