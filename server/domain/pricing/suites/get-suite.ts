import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import { readSuite } from "./suite-response.ts";

export async function getSuite(ctx: DomainContext, id: string) {
  const suite = await readSuite(ctx.db, id);
  if (!suite) throw notFound("Suite");
  return suite;
}
