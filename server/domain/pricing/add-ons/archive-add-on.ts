import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import { now } from "../../../clock.ts";
import { readAddOn } from "./add-on-response.ts";

/**
 * POST /admin/usage-plans/add-ons/{addOnId}/archive: Draft → Archived (read-only from then on;
 * nothing leaves Archived). Archiving an archived add-on changes nothing. Existing grants stay.
 */
export async function archiveAddOn(ctx: DomainContext, id: string) {
  await ctx.db.addOn.updateMany({
    where: { id, status: "Draft" },
    data: { status: "Archived", archivedAt: now() },
  });
  const addOn = await readAddOn(ctx.db, ctx.tenantId, id);
  if (!addOn) throw notFound("Add-on");
  return addOn;
}
