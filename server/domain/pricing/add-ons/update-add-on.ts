import type { DomainContext } from "../../context.ts";
import { AppError, notFound, validationError } from "../../../core/errors.ts";
import { isUniqueViolation } from "../../../db/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import type { TAddOnUpdateRequest } from "./add-on.schemas.ts";
import type { TUsageTier } from "../../catalog/monitored-assets/usage-tier.schemas.ts";
import { featureValueRows, prepareAddOnFeatures } from "./add-on-feature-values.ts";
import { readAddOn } from "./add-on-response.ts";
import { addOnCodeTaken } from "./create-add-on.ts";

export const addOnArchived = () =>
  new AppError("add_on.archived", "This add-on is archived, and archived add-ons are read-only.");

/**
 * PUT /admin/usage-plans/add-ons/{addOnId}: replaces code, name and description;
 * featureCatalogIds and featureValues null keep them, a list replaces them. Archived add-ons are
 * read-only (400); an add-on stays in its suite.
 */
export async function updateAddOn(ctx: DomainContext, id: string, input: TAddOnUpdateRequest) {
  try {
    return await inTransaction(ctx.db, async (tx) => {
      const current = await tx.addOn.findUnique({
        where: { id },
        include: { featureValues: { orderBy: { sortOrder: "asc" } } },
      });
      if (!current) throw notFound("Add-on");
      if (current.status === "Archived") throw addOnArchived();
      if (input.suiteId && input.suiteId.toLowerCase() !== current.suiteId) {
        throw validationError("An add-on stays in its suite; create another add-on for another suite.", [
          { path: "suiteId", message: "suiteId cannot change." },
        ]);
      }
      const values =
        input.featureValues ??
        current.featureValues.map((v) => ({
          featureCode: v.featureCode,
          value: v.value,
          usageTiers: v.usageTiers as unknown as TUsageTier[],
          planTargets: v.planTargets,
          operation: v.operation as "Replace" | "Add" | "Tiered",
        }));
      const prepared = await prepareAddOnFeatures(tx, {
        suiteId: current.suiteId,
        featureCatalogIds: input.featureCatalogIds ?? current.featureCatalogIds,
        featureValues: values,
        alreadyGranted: current.featureCatalogIds,
        checkValues: input.featureValues != null,
      });
      await tx.addOn.update({
        where: { id },
        data: {
          code: input.code,
          name: input.name,
          description: input.description,
          featureCatalogIds: prepared.featureCatalogIds,
        },
      });
      if (input.featureValues) {
        await tx.addOnFeatureValue.deleteMany({ where: { addOnId: id } });
        if (prepared.featureValues.length)
          await tx.addOnFeatureValue.createMany({
            data: featureValueRows(ctx.tenantId, id, prepared.featureValues),
          });
      }
      return (await readAddOn(tx, ctx.tenantId, id))!;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw addOnCodeTaken(input.code);
    throw error;
  }
}
