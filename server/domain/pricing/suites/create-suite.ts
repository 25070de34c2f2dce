import type { DomainContext } from "../../context.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { isUniqueViolation } from "../../../db/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import type { TSuiteCreateRequest } from "./suite.schemas.ts";
import { missingLiveProducts } from "../../catalog/pricing-lookups.ts";
import { readSuite } from "./suite-response.ts";

export const suiteCodeTaken = (code: string) =>
  new AppError("suite.code_taken", `A suite with code "${code}" already exists.`);

/** docs/api.md POST /admin/suites: members in the given sell order. An explicit suite is never implicit. */
export async function createSuite(ctx: DomainContext, input: TSuiteCreateRequest) {
  try {
    return await inTransaction(ctx.db, async (tx) => {
      const missing = await missingLiveProducts(tx, input.memberProductIds);
      if (missing.length) throw notFound(`Product ${missing[0]}`);
      const suite = await tx.suite.create({
        data: {
          tenantId: ctx.tenantId,
          code: input.code,
          name: input.name,
          description: input.description,
          isImplicit: false,
        },
      });
      if (input.memberProductIds.length) {
        await tx.suiteMember.createMany({
          data: input.memberProductIds.map((productId, i) => ({
            tenantId: ctx.tenantId,
            suiteId: suite.id,
            productId,
            sortOrder: i + 1,
          })),
        });
      }
      return (await readSuite(tx, suite.id))!;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw suiteCodeTaken(input.code);
    throw error;
  }
}
