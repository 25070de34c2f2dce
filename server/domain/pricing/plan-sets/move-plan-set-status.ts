import type { DomainContext } from "../../context.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { now } from "../../../clock.ts";
import type { TPlanSetStatus } from "./plan-set.schemas.ts";
import { lockSuite } from "../suites/suite-lock.ts";
import { readPlanSet } from "./plan-set-response.ts";

/** The moves PUT .../status allows (docs/decisions.md); a move to the current status changes nothing. */
const allowedMoves: Record<TPlanSetStatus, readonly TPlanSetStatus[]> = {
  Draft: ["Published", "Archived"],
  Published: ["Archived"],
  Archived: [],
};

const refusal: Record<TPlanSetStatus, string> = {
  Draft: "",
  Published:
    "A published revision only moves to Archived; to change it, edit it (the edit lands on a draft copy).",
  Archived: "Nothing leaves Archived: an archived revision is read-only.",
};

/**
 * docs/api.md PUT /admin/usage-plans/plan-sets/{planSetId}/status: the only way a revision moves.
 * Draft → Published archives the suite's previously published revision in the same step (a suite
 * has at most one); Draft → Archived discards a draft (kept in the timeline); Published → Archived
 * retires the suite's live plans. A revision needs at least one plan to be published.
 */
export async function movePlanSetStatus(ctx: DomainContext, id: string, status: TPlanSetStatus) {
  return inTransaction(ctx.db, async (tx) => {
    const found = await tx.usagePlanSet.findUnique({ where: { id }, select: { suiteId: true } });
    if (!found) throw notFound("Plan set");
    await lockSuite(tx, ctx.tenantId, found.suiteId);
    const current = await tx.usagePlanSet.findUniqueOrThrow({ where: { id } });
    const from = current.status as TPlanSetStatus;
    if (from === status) return (await readPlanSet(tx, id))!;
    if (!allowedMoves[from].includes(status)) {
      throw new AppError(
        "plan_set.invalid_status_transition",
        `${from} → ${status} is not allowed. ${refusal[from]}`.trim(),
      );
    }
    const timestamp = now();
    if (status === "Published") {
      const plans = await tx.usagePlan.count({ where: { planSetId: id } });
      if (plans === 0)
        throw new AppError("plan_set.not_publishable", "A revision without plans cannot be published.");
      await tx.usagePlanSet.updateMany({
        where: { suiteId: current.suiteId, status: "Published" },
        data: { status: "Archived", archivedAt: timestamp },
      });
      await tx.usagePlanSet.update({ where: { id }, data: { status: "Published", publishedAt: timestamp } });
    } else {
      await tx.usagePlanSet.update({ where: { id }, data: { status: "Archived", archivedAt: timestamp } });
    }
    return (await readPlanSet(tx, id))!;
  });
}
