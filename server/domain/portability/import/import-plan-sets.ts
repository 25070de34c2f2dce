import { createPlanSet } from "../../pricing/plan-sets/create-plan-set.ts";
import { updatePlanSet } from "../../pricing/plan-sets/update-plan-set.ts";
import { movePlanSetStatus } from "../../pricing/plan-sets/move-plan-set-status.ts";
import {
  ZPlanSetCreateRequest,
  ZPlanSetUpdateRequest,
  type TPlanSetStatus,
} from "../../pricing/plan-sets/plan-set.schemas.ts";
import type { DomainContext } from "../../context.ts";
import { deepEqual, mergeField } from "./comparison.ts";
import { ItemRefusal, parseDomainInput, type ImportRun } from "./import-run.ts";
import type { SectionImporter } from "./import-section.ts";
import type { TPortablePlan } from "../snapshot/snapshot-items.schemas.ts";

const byName = { kind: "list" as const, key: (p: unknown) => (p as { name: string }).name.toLowerCase() };

/** The file's plans with their line items' products remapped; a product not in the target refuses the item. */
async function targetPlans(run: ImportRun, plans: readonly TPortablePlan[]): Promise<TPortablePlan[]> {
  const result: TPortablePlan[] = [];
  for (const plan of plans) {
    const lineItems = [];
    for (const li of plan.lineItems) {
      const productId = await run.resolve("Product", li.productId);
      if (!productId)
        throw new ItemRefusal(
          `Plan ${plan.name} configures ${run.sourceKeyOf(li.productId)}, which is not in the target.`,
        );
      lineItems.push({ ...li, productId });
    }
    result.push({ ...plan, lineItems });
  }
  return result;
}

/** Moves a revision to the file's status through PUT .../status's rule, noting what publishing archived. */
async function moveTo(ctx: DomainContext, id: string, suiteId: string, status: string, notes: string[]) {
  const published = await ctx.db.usagePlanSet.findFirst({
    where: { suiteId, status: "Published", id: { not: id } },
    select: { revision: true },
  });
  await movePlanSetStatus(ctx, id, status as TPlanSetStatus);
  if (status === "Published" && published)
    notes.push(`Publishing it archived the suite's previously published revision r${published.revision}.`);
}

/** Revisions of one suite and name are paired in revision order (ImportRun-scoped counters). */
const pairing = new WeakMap<ImportRun, Map<string, number>>();

/**
 * Plan-set revisions (the `plans` section): matched within their suite by name, revisions of one
 * name paired in revision order. Created as a Draft through createPlanSet, then moved to the
 * file's status (Published or Archived) through the status rule. docs/api.md: a Published revision is
 * never edited: an update lands on a new Draft copy (updatePlanSet), published again when the
 * file says Published. Plans merge by name (the target's other plans stay).
 */
export const planSetsImporter: SectionImporter<"plans"> = {
  section: "plans",
  refKinds: ["Product"],
  fields: { description: { kind: "value" }, status: { kind: "value" }, plans: byName },
  comparable: (p, keyOf) => ({
    description: p.description,
    status: p.status,
    plans: p.plans.map((plan) => ({
      ...plan,
      lineItems: plan.lineItems.map((li) => ({ ...li, productId: keyOf(li.productId) })),
    })),
  }),
  order: (items) =>
    [...items].sort(
      (a, b) =>
        (a.naturalKey.code ?? "").localeCompare(b.naturalKey.code ?? "") ||
        (a.item?.revision ?? 0) - (b.item?.revision ?? 0) ||
        a.position - b.position,
    ),

  async match(run, entry) {
    const suiteId = await run.resolve("Suite", entry.item!.suiteId);
    if (!suiteId) return null;
    const candidates = await run.db.usagePlanSet.findMany({
      where: { suiteId, name: entry.item!.name },
      orderBy: [{ revision: "asc" }],
      select: { id: true },
    });
    if (!pairing.has(run)) pairing.set(run, new Map());
    const counters = pairing.get(run)!;
    const key = `${suiteId}\u0000${entry.item!.name}`;
    const used = counters.get(key) ?? 0;
    counters.set(key, used + 1);
    return candidates[used] ? { id: candidates[used].id, naturalKey: entry.naturalKey } : null;
  },

  async create(run, ctx, p) {
    const notes: string[] = [];
    const suiteId = await run.resolve("Suite", p.suiteId);
    if (!suiteId) throw new ItemRefusal(`Its suite ${run.sourceKeyOf(p.suiteId)} is not in the target.`);
    const created = await createPlanSet(
      ctx,
      parseDomainInput(ZPlanSetCreateRequest, {
        suiteId,
        name: p.name,
        description: p.description,
        plans: await targetPlans(run, p.plans),
      }),
    );
    if (p.status !== "Draft") await moveTo(ctx, created.id, suiteId, p.status, notes);
    return { id: created.id, notes };
  },

  async update(run, ctx, p, { id, current }) {
    const notes: string[] = [];
    const plans = mergeField(byName, current.plans, await targetPlans(run, p.plans)) as TPortablePlan[];
    let revisionId = id;
    let status = current.status;
    if (p.description !== current.description || !deepEqual(plans, current.plans)) {
      const written = await updatePlanSet(
        ctx,
        id,
        parseDomainInput(ZPlanSetUpdateRequest, { name: p.name, description: p.description, plans }),
      );
      if (written.id !== id) {
        notes.push(
          `The published revision r${current.revision} is never edited; the file's plans are in the new draft revision r${written.revision}.`,
        );
        revisionId = written.id;
        status = "Draft";
      }
    }
    const suiteId = (
      await ctx.db.usagePlanSet.findUniqueOrThrow({ where: { id }, select: { suiteId: true } })
    ).suiteId;
    if (p.status !== status) await moveTo(ctx, revisionId, suiteId, p.status, notes);
    return { id: revisionId, notes };
  },
};
