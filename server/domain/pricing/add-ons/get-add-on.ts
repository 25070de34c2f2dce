import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import { readAddOn } from "./add-on-response.ts";

export async function getAddOn(ctx: DomainContext, id: string) {
  const addOn = await readAddOn(ctx.db, ctx.tenantId, id);
  if (!addOn) throw notFound("Add-on");
  return addOn;
}
