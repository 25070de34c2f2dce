import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import { productsByIds } from "../../catalog/pricing-lookups.ts";
import type { ReferenceKind } from "./sections.ts";
import type { TNaturalKey } from "./snapshot.schemas.ts";

/**
 * Natural keys: what identifies a record across tenants, where ids differ (docs/decisions.md,
 * "Portability"). Product: productCode + productVersion (code compared case-insensitively, as the
 * uniqueness rule does); feature catalog entry: featureCode; tag: scope + name (case-insensitive);
 * monitored asset: its product's key + metricName (case-sensitive, as metering matches it); suite:
 * code (an implicit suite also by its product); plan set: suite code + name, with the revision as
 * `version` to pair revisions that share a name; add-on: code; offer, rating campaign and customer
 * organization: name.
 */

export type KeyedRecord = { kind: ReferenceKind; naturalKey: TNaturalKey; live: boolean };

const productKey = (code: string, version: string) => (version ? `${code}@${version}` : code);

/** docs/api.md business key of an item (the key of import results and selective apply). */
export function businessKey(kind: ReferenceKind, key: TNaturalKey): string {
  switch (kind) {
    case "Product":
      return productKey(key.productCode ?? "", key.productVersion ?? "");
    case "FeatureCatalogEntry":
      return key.featureCode ?? "";
    case "Tag":
      return `${key.scope ?? ""}:${key.name ?? ""}`;
    case "MonitoredAsset":
      return `${productKey(key.productCode ?? "", key.productVersion ?? "")}/${key.metricName ?? ""}`;
    case "Suite":
    case "AddOn":
      return key.code ?? "";
    case "PlanSet":
    case "Offer":
    case "RatingCampaign":
    case "CustomerOrganization":
      return key.name ?? "";
  }
}

/**
 * The normalised form two records of one kind are matched on. Plan sets match within their suite
 * (suite code + name); pairing revisions of one name is the importer's business.
 */
export function matchKey(kind: ReferenceKind, key: TNaturalKey): string {
  const product = `${(key.productCode ?? "").toLowerCase()}@${key.productVersion ?? ""}`;
  switch (kind) {
    case "Product":
      return product;
    case "FeatureCatalogEntry":
      return (key.featureCode ?? "").trim().toUpperCase();
    case "Tag":
      return `${key.scope ?? ""}:${(key.name ?? "").trim().toLowerCase()}`;
    case "MonitoredAsset":
      return `${product}/${key.metricName ?? ""}`;
    case "Suite":
    case "AddOn":
      return key.code ?? "";
    case "PlanSet":
      return `${key.code ?? ""}\u0000${key.name ?? ""}`;
    case "Offer":
    case "RatingCampaign":
    case "CustomerOrganization":
      return key.name ?? "";
  }
}

/** Parses a product business key (`code@version`, or `code` for an empty version). */
export function parseProductKey(key: string): { productCode: string; productVersion: string } {
  const at = key.indexOf("@");
  return at < 0
    ? { productCode: key, productVersion: "" }
    : { productCode: key.slice(0, at), productVersion: key.slice(at + 1) };
}

/**
 * The natural keys of records of any kinds, by id, soft-deleted and archived ones included
 * (`live` tells): one query per kind. Ids that name nothing are absent from the result.
 */
export async function loadNaturalKeys(
  db: TenantDbOrTx,
  idsByKind: ReadonlyMap<ReferenceKind, readonly string[]>,
): Promise<Map<string, KeyedRecord>> {
  const result = new Map<string, KeyedRecord>();
  const ids = (kind: ReferenceKind) => [...new Set(idsByKind.get(kind) ?? [])];
  const put = (id: string, kind: ReferenceKind, naturalKey: TNaturalKey, live: boolean) =>
    result.set(id, { kind, naturalKey, live });

  const tasks: Promise<void>[] = [];
  const tagIds = ids("Tag");
  if (tagIds.length)
    tasks.push(
      db.tag
        .findMany({
          where: { id: { in: tagIds } },
          select: { id: true, scope: true, name: true, isDeleted: true },
        })
        .then((rows) =>
          rows.forEach((r) => put(r.id, "Tag", { scope: r.scope, name: r.name }, !r.isDeleted)),
        ),
    );
  const productIds = ids("Product");
  if (productIds.length)
    tasks.push(
      productsByIds(db, productIds).then((rows) =>
        rows.forEach((r) =>
          put(
            r.id,
            "Product",
            { productCode: r.productCode, productVersion: r.productVersion },
            !r.isDeleted,
          ),
        ),
      ),
    );
  const entryIds = ids("FeatureCatalogEntry");
  if (entryIds.length)
    tasks.push(
      db.featureCatalogEntry
        .findMany({
          where: { id: { in: entryIds } },
          select: { id: true, featureCode: true, isDeleted: true },
        })
        .then((rows) =>
          rows.forEach((r) => put(r.id, "FeatureCatalogEntry", { featureCode: r.featureCode }, !r.isDeleted)),
        ),
    );
  const assetIds = ids("MonitoredAsset");
  if (assetIds.length)
    tasks.push(
      (async () => {
        const rows = await db.monitoredAsset.findMany({
          where: { id: { in: assetIds } },
          select: { id: true, productId: true, metricName: true, ownerKind: true },
        });
        const products = await productsByIds(
          db,
          rows.map((r) => r.productId).filter((p): p is string => !!p),
        );
        for (const r of rows) {
          const p = r.productId ? products.get(r.productId) : undefined;
          put(
            r.id,
            "MonitoredAsset",
            {
              productCode: p?.productCode ?? "",
              productVersion: p?.productVersion ?? "",
              metricName: r.metricName,
            },
            r.ownerKind === "Product" && !!p && !p.isDeleted,
          );
        }
      })(),
    );
  const suiteIds = ids("Suite");
  if (suiteIds.length)
    tasks.push(
      (async () => {
        const rows = await db.suite.findMany({
          where: { id: { in: suiteIds } },
          select: { id: true, code: true, isImplicit: true, implicitProductId: true },
        });
        const products = await productsByIds(
          db,
          rows.map((r) => r.implicitProductId).filter((p): p is string => !!p),
        );
        for (const r of rows) {
          const p = r.implicitProductId ? products.get(r.implicitProductId) : undefined;
          put(
            r.id,
            "Suite",
            p
              ? { code: r.code, productCode: p.productCode, productVersion: p.productVersion }
              : { code: r.code },
            true,
          );
        }
      })(),
    );
  const planSetIds = ids("PlanSet");
  if (planSetIds.length)
    tasks.push(
      db.usagePlanSet
        .findMany({
          where: { id: { in: planSetIds } },
          select: { id: true, name: true, revision: true, suite: { select: { code: true } } },
        })
        .then((rows) =>
          rows.forEach((r) =>
            put(r.id, "PlanSet", { code: r.suite.code, name: r.name, version: String(r.revision) }, true),
          ),
        ),
    );
  const addOnIds = ids("AddOn");
  if (addOnIds.length)
    tasks.push(
      db.addOn
        .findMany({ where: { id: { in: addOnIds } }, select: { id: true, code: true } })
        .then((rows) => rows.forEach((r) => put(r.id, "AddOn", { code: r.code }, true))),
    );
  const offerIds = ids("Offer");
  if (offerIds.length)
    tasks.push(
      db.offer
        .findMany({ where: { id: { in: offerIds } }, select: { id: true, name: true } })
        .then((rows) => rows.forEach((r) => put(r.id, "Offer", { name: r.name }, true))),
    );
  const campaignIds = ids("RatingCampaign");
  if (campaignIds.length)
    tasks.push(
      db.ratingCampaign
        .findMany({ where: { id: { in: campaignIds } }, select: { id: true, name: true } })
        .then((rows) => rows.forEach((r) => put(r.id, "RatingCampaign", { name: r.name }, true))),
    );
  const organizationIds = ids("CustomerOrganization");
  if (organizationIds.length)
    tasks.push(
      db.customerOrganization
        .findMany({ where: { id: { in: organizationIds } }, select: { id: true, name: true } })
        .then((rows) => rows.forEach((r) => put(r.id, "CustomerOrganization", { name: r.name }, true))),
    );
  await Promise.all(tasks);
  return result;
}
