import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import { readPlanSet } from "./plan-set-response.ts";

export async function getPlanSet(ctx: DomainContext, id: string) {
  const planSet = await readPlanSet(ctx.db, id);
  if (!planSet) throw notFound("Plan set");
  return planSet;
}
