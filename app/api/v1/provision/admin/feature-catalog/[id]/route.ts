import { route } from "@/server/http/route";
import {
  deleteFeatureCatalogContract,
  getFeatureCatalogContract,
  replaceFeatureCatalogContract,
} from "@/server/http/contracts/catalog/feature-catalog";
import { getFeatureCatalogEntry } from "@/server/domain/catalog/feature-catalog/get-feature-catalog-entry";
import { replaceFeatureCatalogEntry } from "@/server/domain/catalog/feature-catalog/replace-feature-catalog-entry";
import { deleteFeatureCatalogEntry } from "@/server/domain/catalog/feature-catalog/delete-feature-catalog-entry";

// GET /api/v1/provision/admin/feature-catalog/{id}
export const GET = route(getFeatureCatalogContract, ({ ctx, params }) =>
  getFeatureCatalogEntry(ctx, params.id),
);

// PUT /api/v1/provision/admin/feature-catalog/{id}
export const PUT = route(replaceFeatureCatalogContract, ({ ctx, params, body }) =>
  replaceFeatureCatalogEntry(ctx, params.id, body),
);

// DELETE /api/v1/provision/admin/feature-catalog/{id}
export const DELETE = route(deleteFeatureCatalogContract, ({ ctx, params }) =>
  deleteFeatureCatalogEntry(ctx, params.id),
);
