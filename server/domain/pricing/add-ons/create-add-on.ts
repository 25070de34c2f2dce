import type { DomainContext } from "../../context.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { isUniqueViolation } from "../../../db/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import type { TAddOnCreateRequest } from "./add-on.schemas.ts";
import { featureValueRows, prepareAddOnFeatures } from "./add-on-feature-values.ts";
import { readAddOn } from "./add-on-response.ts";

export const addOnCodeTaken = (code: string) =>
  new AppError("add_on.code_taken", `An add-on with code "${code}" already exists.`);

/** A Draft add-on of a suite (docs/api.md "Add-on": scoped to the suite, not to a plan-set revision). */
export async function createAddOn(ctx: DomainContext, input: TAddOnCreateRequest) {
  try {
    return await inTransaction(ctx.db, async (tx) => {
      const suite = await tx.suite.findUnique({ where: { id: input.suiteId }, select: { id: true } });
      if (!suite) throw notFound("Suite");
      const prepared = await prepareAddOnFeatures(tx, {
        suiteId: suite.id,
        featureCatalogIds: input.featureCatalogIds,
        featureValues: input.featureValues,
      });
      const row = await tx.addOn.create({
        data: {
          tenantId: ctx.tenantId,
          suiteId: suite.id,
          code: input.code,
          name: input.name,
          description: input.description,
          status: "Draft",
          featureCatalogIds: prepared.featureCatalogIds,
        },
      });
      if (prepared.featureValues.length)
        await tx.addOnFeatureValue.createMany({
          data: featureValueRows(ctx.tenantId, row.id, prepared.featureValues),
        });
      return (await readAddOn(tx, ctx.tenantId, row.id))!;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw addOnCodeTaken(input.code);
    throw error;
  }
}
