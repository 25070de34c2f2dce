import { route } from "@/server/http/route";
import {
  removeProductFeatureContract,
  updateProductFeatureContract,
} from "@/server/http/contracts/catalog/products";
import { updateProductFeature } from "@/server/domain/catalog/products/update-product-feature";
import { removeProductFeature } from "@/server/domain/catalog/products/remove-product-feature";

// PATCH /api/v1/provision/admin/products/{id}/features/{featureId}
export const PATCH = route(updateProductFeatureContract, ({ ctx, params, body }) =>
  updateProductFeature(ctx, params.id, params.featureId, body),
);

// DELETE /api/v1/provision/admin/products/{id}/features/{featureId}
export const DELETE = route(removeProductFeatureContract, ({ ctx, params }) =>
  removeProductFeature(ctx, params.id, params.featureId),
);
