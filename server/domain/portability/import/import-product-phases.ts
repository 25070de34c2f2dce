import { addProductFeature } from "../../catalog/products/add-product-feature.ts";
import { setFeatureLifecycle } from "../../catalog/feature-catalog/set-feature-lifecycle.ts";
import { updateProduct } from "../../catalog/products/update-product.ts";
import {
  ZProductFeatureCreateRequest,
  ZProductUpdateRequest,
} from "../../catalog/products/product.schemas.ts";
import { ZFeatureLifecycleRequest } from "../../catalog/feature-catalog/feature-catalog.schemas.ts";
import { inSavepoint, parseDomainInput, type ImportRun } from "./import-run.ts";
import { settleReason } from "./import-section.ts";
import type { DomainContext } from "../../context.ts";
import { featureSettings, type TPortableProductFeature } from "../snapshot/snapshot-items.schemas.ts";

/**
 * After products and catalog entries: attaches each product's features (in the file's sortOrder,
 * after any the product already has) through addProductFeature, so its rules (live entry, one per
 * product, value valid for the type, lifecycle) apply. A feature that cannot be attached is noted
 * on its product's item, which was then applied partially; the others are attached.
 */
export async function attachProductFeatures(run: ImportRun): Promise<void> {
  for (const work of run.deferred.features) {
    const attached = new Set(
      (
        await run.db.productFeature.findMany({
          where: { productId: work.productId, isDeleted: false },
          select: { featureCatalogId: true },
        })
      ).map((f) => f.featureCatalogId),
    );
    const pending: { entryId: string; label: string; feature: TPortableProductFeature }[] = [];
    for (const feature of [...work.features].sort((a, b) => a.sortOrder - b.sortOrder)) {
      const label = feature.featureCode || run.sourceKeyOf(feature.featureCatalogId) || "";
      const entryId = await run.resolve("FeatureCatalogEntry", feature.featureCatalogId);
      if (!entryId)
        work.item.notes.push(`Feature ${label} not attached: its catalog entry is not in the target.`);
      else if (!attached.has(entryId)) {
        attached.add(entryId);
        pending.push({ entryId, label, feature });
      }
    }
    // One savepoint for the product's features; when one is refused, again one by one to say which.
    const together = await inSavepoint(run.ctx, async (ctx) => {
      for (const p of pending) await attach(ctx, work.productId, p.entryId, p.feature);
    });
    let attachedAny = together.ok && pending.length > 0;
    if (!together.ok) {
      for (const p of pending) {
        const outcome = await inSavepoint(run.ctx, (ctx) =>
          attach(ctx, work.productId, p.entryId, p.feature),
        );
        if (!outcome.ok) work.item.notes.push(`Feature ${p.label} not attached: ${outcome.reason}`);
        else attachedAny = true;
      }
    }
    if (work.onlyChange && !attachedAny) run.skipAfterAll("products", work.item);
    settleReason(work.item);
  }
  run.deferred.features = [];
}

function attach(ctx: DomainContext, productId: string, featureCatalogId: string, f: TPortableProductFeature) {
  return addProductFeature(
    ctx,
    productId,
    parseDomainInput(ZProductFeatureCreateRequest, { featureCatalogId, ...featureSettings(f) }),
  );
}

/**
 * Lifecycle moves left for after the features are attached (a Disabled or Archived entry cannot be
 * attached): created entries reach their status through allowed moves, updated ones by one move.
 */
export async function finishFeatureLifecycles(run: ImportRun): Promise<void> {
  for (const work of run.deferred.lifecycle) {
    const outcome = await inSavepoint(run.ctx, (ctx) =>
      setFeatureLifecycle(
        ctx,
        work.entryId,
        parseDomainInput(ZFeatureLifecycleRequest, { lifecycleStatus: work.status }),
      ),
    );
    if (!outcome.ok) {
      work.item.notes.push(`lifecycleStatus not moved to ${work.status}: ${outcome.reason}`);
      settleReason(work.item);
    }
  }
  run.deferred.lifecycle = [];
}

/** Products the file has locked are locked last, once their features and assets are written. */
export async function lockProducts(run: ImportRun): Promise<void> {
  for (const work of run.deferred.locks) {
    const outcome = await inSavepoint(run.ctx, (ctx) =>
      updateProduct(ctx, work.productId, parseDomainInput(ZProductUpdateRequest, { isLocked: true })),
    );
    if (!outcome.ok) {
      work.item.notes.push(`Not locked: ${outcome.reason}`);
      settleReason(work.item);
    }
  }
  run.deferred.locks = [];
}
