import type { DomainContext } from "../../context.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import {
  lifecycleMoves,
  type TFeatureLifecycleRequest,
  type TLifecycleStatus,
} from "./feature-catalog.schemas.ts";
import { getFeatureCatalogEntry } from "./get-feature-catalog-entry.ts";

/** PUT /admin/feature-catalog/{id}/lifecycle: the only way to move an entry's lifecycleStatus. */
export async function setFeatureLifecycle(ctx: DomainContext, id: string, input: TFeatureLifecycleRequest) {
  return inTransaction(ctx.db, async (tx) => {
    const current = await tx.featureCatalogEntry.findUnique({ where: { id } });
    if (!current || current.isDeleted) throw notFound("Feature catalog entry");
    const from = current.lifecycleStatus as TLifecycleStatus;
    if (from !== input.lifecycleStatus) {
      const allowed = lifecycleMoves[from] ?? [];
      if (!allowed.includes(input.lifecycleStatus)) {
        throw new AppError(
          "feature.invalid_lifecycle_transition",
          `A feature cannot move from ${from} to ${input.lifecycleStatus}; from ${from} it can move to ${allowed.join(" or ") || "nothing (Archived is final)"}.`,
        );
      }
    }
    const { count } = await tx.featureCatalogEntry.updateMany({
      where: {
        id,
        isDeleted: false,
        ...(input.revisionNumber ? { revisionNumber: input.revisionNumber } : {}),
      },
      data: { lifecycleStatus: input.lifecycleStatus, revisionNumber: { increment: 1 } },
    });
    if (count === 0) {
      throw new AppError(
        "concurrency.revision_mismatch",
        `The entry was changed since revision ${input.revisionNumber}; reload it and try again.`,
      );
    }
    return getFeatureCatalogEntry({ ...ctx, db: tx }, id);
  });
}
