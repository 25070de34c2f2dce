import type { DomainContext } from "../../context.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { lockSuite } from "./suite-lock.ts";
import { createDraftRevision, readPlans } from "../plan-sets/plan-set-store.ts";

/**
 * docs/api.md "Suite plan sets" / "Suite member" rows of DELETE /admin/suites/{suiteId}/members/{productId},
 * all in one transaction:
 * - not a member: nothing changes;
 * - Draft revisions lose the product's line items, in the same step as the member leaves;
 * - a Published revision that still includes the product is not edited: the change is made in
 *   the suite's draft revision, created as a copy of the published one (without the product's
 *   line items) when the suite has no draft;
 * - Archived revisions are left as they are.
 * The remaining members close ranks (sell order 1..n).
 */
export async function deleteSuiteMember(
  ctx: DomainContext,
  suiteId: string,
  productId: string,
): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const suite = await lockSuite(tx, ctx.tenantId, suiteId);
    const { count } = await tx.suiteMember.deleteMany({ where: { suiteId, productId } });
    if (count === 0) return;

    const remaining = await tx.suiteMember.findMany({
      where: { suiteId },
      orderBy: [{ sortOrder: "asc" }, { createdAt: "asc" }],
    });
    for (const [i, member] of remaining.entries()) {
      if (member.sortOrder !== i + 1) {
        await tx.suiteMember.update({
          where: {
            tenantId_suiteId_productId: { tenantId: ctx.tenantId, suiteId, productId: member.productId },
          },
          data: { sortOrder: i + 1 },
        });
      }
    }
    // An implicit suite stops standing for a product that left it (pricing it again makes a new one).
    if (suite.implicitProductId === productId)
      await tx.suite.update({ where: { id: suiteId }, data: { implicitProductId: null } });

    const drafts = await tx.usagePlanSet.findMany({
      where: { suiteId, status: "Draft" },
      select: { id: true },
    });
    if (drafts.length) {
      await tx.usagePlanLineItem.deleteMany({
        where: { planSetId: { in: drafts.map((d) => d.id) }, productId },
      });
      return;
    }
    const published = await tx.usagePlanSet.findFirst({ where: { suiteId, status: "Published" } });
    if (!published) return;
    const includesProduct = await tx.usagePlanLineItem.count({
      where: { planSetId: published.id, productId },
    });
    if (!includesProduct) return;
    const plans = (await readPlans(tx, [published.id])).get(published.id) ?? [];
    await createDraftRevision(tx, ctx.tenantId, {
      suiteId,
      name: published.name,
      description: published.description,
      sourcePlanSetId: published.id,
      plans: plans.map((plan) => ({
        ...plan,
        lineItems: plan.lineItems.filter((item) => item.productId !== productId),
      })),
    });
  });
}
