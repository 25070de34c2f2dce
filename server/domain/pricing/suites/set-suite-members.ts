import type { DomainContext } from "../../context.ts";
import { notFound, validationError } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { now } from "../../../clock.ts";
import type { TSuiteMembersRequest } from "./suite.schemas.ts";
import { missingLiveProducts } from "../../catalog/pricing-lookups.ts";
import { lockSuite } from "./suite-lock.ts";
import { readSuite } from "./suite-response.ts";

/**
 * POST /admin/suites/{suiteId}/members: the complete sell order. New products join, current
 * members move to their listed position. A member left out is refused (400): removal goes
 * through DELETE .../members/{productId}, which carries docs/api.md's plan-set rules.
 * docs/api.md: an implicit suite becomes non-implicit for good once a second product joins.
 */
export async function setSuiteMembers(ctx: DomainContext, suiteId: string, input: TSuiteMembersRequest) {
  return inTransaction(ctx.db, async (tx) => {
    const suite = await lockSuite(tx, ctx.tenantId, suiteId);
    const current = await tx.suiteMember.findMany({ where: { suiteId }, select: { productId: true } });
    const wanted = input.productIds.map((id) => id.toLowerCase());
    const omitted = current.filter((m) => !wanted.includes(m.productId));
    if (omitted.length) {
      throw validationError(
        `productIds must list every current member in its new place; ${omitted.length} member(s) are missing. Remove members with DELETE /admin/suites/{suiteId}/members/{productId}.`,
        omitted.map((m) => ({ path: "productIds", message: `Current member ${m.productId} is missing.` })),
      );
    }
    const joining = wanted.filter((id) => !current.some((m) => m.productId === id));
    const missing = await missingLiveProducts(tx, joining);
    if (missing.length) throw notFound(`Product ${missing[0]}`);

    if (joining.length) {
      await tx.suiteMember.createMany({
        data: joining.map((productId) => ({ tenantId: ctx.tenantId, suiteId, productId, sortOrder: 0 })),
      });
    }
    for (const [i, productId] of wanted.entries()) {
      await tx.suiteMember.update({
        where: { tenantId_suiteId_productId: { tenantId: ctx.tenantId, suiteId, productId } },
        data: { sortOrder: i + 1 },
      });
    }
    const becomesExplicit = suite.isImplicit && wanted.length >= 2;
    await tx.suite.update({
      where: { id: suiteId },
      data: becomesExplicit ? { isImplicit: false, implicitProductId: null } : { updatedAt: now() },
    });
    return (await readSuite(tx, suiteId))!;
  });
}
