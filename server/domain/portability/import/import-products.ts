import { createProduct } from "../../catalog/products/create-product.ts";
import { updateProduct } from "../../catalog/products/update-product.ts";
import {
  productStatusMoves,
  ZProductCreateRequest,
  ZProductUpdateRequest,
  ZProperty,
  type TProductStatus,
} from "../../catalog/products/product.schemas.ts";
import { toStoredProperty } from "../../catalog/products/product-rules.ts";
import { deepEqual, mergeField } from "./comparison.ts";
import { parseDomainInput } from "./import-run.ts";
import type { SectionImporter } from "./import-section.ts";
import type { ParsedItem } from "../snapshot/snapshot-file.ts";
import { featureSettings, type TPortableProductFeature } from "../snapshot/snapshot-items.schemas.ts";

const lower = (v: unknown) => String(v).toLowerCase();

/** Properties as stored (defaults explicit), so a hand-written file compares equal to an export. */
function storedProperties(map: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(map).map(([name, raw]) => {
      const parsed = ZProperty.safeParse(raw);
      return [name, parsed.success ? toStoredProperty(name, parsed.data) : raw];
    }),
  );
}

/** Parents before their children, so a child's parentProductId resolves to an imported parent. */
function parentsFirst(items: ParsedItem<"products">[]): ParsedItem<"products">[] {
  const byId = new Map(items.filter((i) => i.sourceId).map((i) => [i.sourceId!, i]));
  const ordered: ParsedItem<"products">[] = [];
  const placed = new Set<ParsedItem<"products">>();
  const visiting = new Set<ParsedItem<"products">>();
  const visit = (item: ParsedItem<"products">) => {
    if (placed.has(item) || visiting.has(item)) return;
    visiting.add(item);
    const parent = item.item?.parentProductId ? byId.get(item.item.parentProductId) : undefined;
    if (parent) visit(parent);
    visiting.delete(item);
    placed.add(item);
    ordered.push(item);
  };
  items.forEach(visit);
  return ordered;
}

/**
 * Products: matched by productCode + productVersion. Created with their own fields (unlocked: a
 * locked product refuses features, so a lock is applied after its features and assets), then
 * their features are attached once the catalog entries exist (import-product-phases.ts). An
 * existing product is merged (tags, scopes and properties added, nothing removed); its features
 * and monitored assets are never overwritten: only features it lacks are attached.
 */
export const productsImporter: SectionImporter<"products"> = {
  section: "products",
  refKinds: ["Product", "FeatureCatalogEntry"],
  fields: {
    name: { kind: "value" },
    description: { kind: "value" },
    status: { kind: "value" },
    expirationDate: { kind: "value" },
    externalId: { kind: "value" },
    tags: { kind: "set", key: lower },
    propertyValues: { kind: "map" },
    applicationScopes: { kind: "set" },
    isLocked: { kind: "value" },
    parentProduct: { kind: "value" },
    features: { kind: "set" },
  },
  comparable: (p, keyOf) => ({
    name: p.name,
    description: p.description,
    status: p.status,
    expirationDate: p.expirationDate ? new Date(p.expirationDate).toISOString() : null,
    externalId: p.externalId || null,
    tags: p.tags,
    propertyValues: storedProperties(p.propertyValues),
    applicationScopes: p.applicationScopes,
    isLocked: p.isLocked,
    parentProduct: keyOf(p.parentProductId),
    features: p.features.map((f) => keyOf(f.featureCatalogId)),
  }),
  order: parentsFirst,

  async create(run, ctx, p) {
    const notes: string[] = [];
    const parentProductId = await run.resolve("Product", p.parentProductId);
    if (p.parentProductId && !parentProductId)
      notes.push(
        `Created without its parent product (${run.sourceKeyOf(p.parentProductId)} is not in the target).`,
      );
    const product = await createProduct(
      ctx,
      parseDomainInput(ZProductCreateRequest, {
        name: p.name,
        description: p.description,
        productCode: p.productCode,
        productVersion: p.productVersion,
        status: p.status,
        expirationDate: p.expirationDate,
        externalId: p.externalId,
        tags: p.tags,
        propertyValues: p.propertyValues,
        isLocked: false,
        applicationScopes: p.applicationScopes,
        parentProductId,
      }),
    );
    return {
      id: product.id,
      notes,
      after: (item) => {
        run.createdProducts.add(product.id);
        run.deferred.features.push({ productId: product.id, item, features: p.features });
        if (p.isLocked) run.deferred.locks.push({ productId: product.id, item });
      },
    };
  },

  async update(run, ctx, p, { id, current }) {
    const notes: string[] = [];
    const patch: Record<string, unknown> = {};
    if (p.name !== current.name) patch.name = p.name;
    if (p.description !== current.description) patch.description = p.description;
    if (p.status !== current.status) {
      const allowed = productStatusMoves[current.status as TProductStatus] ?? [];
      if (allowed.includes(p.status as TProductStatus)) patch.status = p.status;
      else
        notes.push(`Status kept ${current.status}: ${current.status} → ${p.status} is not an allowed move.`);
    }
    const expiration = p.expirationDate ? new Date(p.expirationDate).toISOString() : null;
    if (expiration !== current.expirationDate) {
      if (expiration) patch.expirationDate = expiration;
      else patch.clearExpirationDate = true;
    }
    if ((p.externalId || null) !== current.externalId) {
      if (p.externalId) patch.externalId = p.externalId;
      else patch.clearExternalId = true;
    }
    const properties = storedProperties(p.propertyValues);
    const currentProperties = current.propertyValues as Record<string, unknown>;
    const changedProperties = Object.fromEntries(
      Object.entries(p.propertyValues).filter(
        ([name]) => !deepEqual(properties[name], currentProperties[name]),
      ),
    );
    if (Object.keys(changedProperties).length) patch.propertyValues = changedProperties;
    const tags = mergeField({ kind: "set", key: lower }, current.tags, p.tags) as string[];
    if (tags.length !== current.tags.length) patch.tags = tags;
    const scopes = mergeField({ kind: "set" }, current.applicationScopes, p.applicationScopes) as string[];
    if (scopes.length !== current.applicationScopes.length) patch.applicationScopes = scopes;
    if (p.parentProductId) {
      const parent = await run.resolve("Product", p.parentProductId);
      if (!parent) notes.push(`Parent kept: ${run.sourceKeyOf(p.parentProductId)} is not in the target.`);
      else if (parent !== current.parentProductId) patch.parentProductId = parent;
    }
    if (Object.keys(patch).length)
      await updateProduct(ctx, id, parseDomainInput(ZProductUpdateRequest, patch));

    const currentFeatures = new Map(current.features.map((f) => [f.featureCatalogId, f]));
    const missing: TPortableProductFeature[] = [];
    let kept = 0;
    for (const f of p.features) {
      const entryId = await run.resolve("FeatureCatalogEntry", f.featureCatalogId);
      const existing = entryId ? currentFeatures.get(entryId) : undefined;
      if (!existing) missing.push(f);
      else if (!deepEqual(featureSettings(existing), featureSettings(f))) kept++;
    }
    if (kept)
      notes.push(
        `${kept} existing feature(s) kept as they are: an existing product's features are never overwritten.`,
      );
    const locks = p.isLocked && !current.isLocked;
    if (!p.isLocked && current.isLocked) notes.push("Kept locked: an import never unlocks a product.");
    if (!Object.keys(patch).length && !missing.length && !locks)
      return {
        notes: notes.length ? notes : ["Nothing the import may change differs."],
        nothingApplied: true,
      };
    return {
      notes,
      after: (item) => {
        if (missing.length)
          run.deferred.features.push({
            productId: id,
            item,
            features: missing,
            onlyChange: !Object.keys(patch).length && !locks,
          });
        if (locks) run.deferred.locks.push({ productId: id, item });
      },
    };
  },
};
