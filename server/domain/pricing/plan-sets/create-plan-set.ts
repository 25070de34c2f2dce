import type { DomainContext } from "../../context.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import type { TPlanSetCreateRequest } from "./plan-set.schemas.ts";
import { lockSuite } from "../suites/suite-lock.ts";
import { ensureImplicitSuite } from "../suites/implicit-suite.ts";
import { preparePlans } from "./plan-set-plans.ts";
import { createDraftRevision } from "./plan-set-store.ts";
import { readPlanSet } from "./plan-set-response.ts";

/**
 * A new Draft revision at the end of a suite's timeline. Given `productId` instead of `suiteId`
 * it prices that one product: the revision belongs to the product's implicit suite, created the
 * first time (docs/api.md "Suite", isImplicit). docs/api.md "Line item": when the suite has one member,
 * line items without productId get it.
 */
export async function createPlanSet(ctx: DomainContext, input: TPlanSetCreateRequest) {
  return inTransaction(ctx.db, async (tx) => {
    const suiteId = input.productId
      ? await ensureImplicitSuite(tx, ctx.tenantId, input.productId.toLowerCase())
      : input.suiteId!;
    await lockSuite(tx, ctx.tenantId, suiteId);
    const members = await tx.suiteMember.findMany({ where: { suiteId }, select: { productId: true } });
    const plans = await preparePlans(tx, {
      plans: input.plans,
      memberIds: members.map((m) => m.productId),
      stampSoleMember: true,
    });
    const row = await createDraftRevision(tx, ctx.tenantId, {
      suiteId,
      name: input.name,
      description: input.description,
      sourcePlanSetId: null,
      plans,
    });
    return (await readPlanSet(tx, row.id))!;
  });
}
