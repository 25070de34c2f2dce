import type { SectionName } from "./sections.ts";
import type { PortableItems } from "./snapshot-items.schemas.ts";
import type { TNaturalKey } from "./snapshot.schemas.ts";

type KeyOf = (id: string | null | undefined) => TNaturalKey | null;

/**
 * The natural key of a file item, from its own fields and, for keys that include another record's
 * (an asset's product, a plan set's suite), the natural key the file gives that record.
 */
export const itemNaturalKeys: { [S in SectionName]: (item: PortableItems[S], keyOf: KeyOf) => TNaturalKey } =
  {
    tags: (t) => ({ scope: t.scope, name: t.name }),
    products: (p) => ({ productCode: p.productCode, productVersion: p.productVersion }),
    featureCatalog: (f) => ({ featureCode: f.featureCode.trim().toUpperCase() }),
    monitoredAssets: (a, keyOf) => {
      const product = keyOf(a.productId);
      return {
        productCode: product?.productCode ?? "",
        productVersion: product?.productVersion ?? "",
        metricName: a.metricName,
      };
    },
    suites: (s, keyOf) => {
      const product = s.isImplicit ? keyOf(s.implicitProductId) : null;
      return product
        ? {
            code: s.code,
            productCode: product.productCode ?? "",
            productVersion: product.productVersion ?? "",
          }
        : { code: s.code };
    },
    plans: (p, keyOf) => ({ code: keyOf(p.suiteId)?.code ?? "", name: p.name, version: String(p.revision) }),
    addOns: (a) => ({ code: a.code }),
    entitlementOffers: (o) => ({ name: o.name }),
    ratingCampaigns: (c) => ({ name: c.name }),
  };
