import type { DomainContext } from "../../context.ts";
import { AppError } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { lockSuite } from "./suite-lock.ts";

/**
 * A suite is deleted only while it owns no plan-set revision and no add-on: those are history
 * that entitlements and grants point at (revisions are archived, never deleted).
 */
export async function deleteSuite(ctx: DomainContext, id: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    await lockSuite(tx, ctx.tenantId, id);
    const [planSets, addOns] = await Promise.all([
      tx.usagePlanSet.count({ where: { suiteId: id } }),
      tx.addOn.count({ where: { suiteId: id } }),
    ]);
    if (planSets || addOns) {
      throw new AppError(
        "suite.in_use",
        `The suite owns ${planSets} plan-set revision(s) and ${addOns} add-on(s); only a suite that owns neither can be deleted.`,
      );
    }
    await tx.suite.delete({ where: { id } });
  });
}
