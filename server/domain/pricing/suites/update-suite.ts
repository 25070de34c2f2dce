import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import { isUniqueViolation } from "../../../db/errors.ts";
import type { TSuiteUpdateRequest } from "./suite.schemas.ts";
import { readSuite } from "./suite-response.ts";
import { suiteCodeTaken } from "./create-suite.ts";

/** Merge-PATCH of a suite's code, name and description (absent or null = unchanged). */
export async function updateSuite(ctx: DomainContext, id: string, input: TSuiteUpdateRequest) {
  const data = {
    ...(input.code != null ? { code: input.code } : {}),
    ...(input.name != null ? { name: input.name } : {}),
    ...(input.description != null ? { description: input.description } : {}),
  };
  try {
    const { count } = await ctx.db.suite.updateMany({ where: { id }, data });
    if (count === 0) throw notFound("Suite");
  } catch (error) {
    if (isUniqueViolation(error)) throw suiteCodeTaken(input.code ?? "");
    throw error;
  }
  return (await readSuite(ctx.db, id))!;
}
