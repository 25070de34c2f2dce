import { route } from "@/server/http/route";
import { addProductFeatureContract } from "@/server/http/contracts/catalog/products";
import { addProductFeature } from "@/server/domain/catalog/products/add-product-feature";

// POST /api/v1/provision/admin/products/{id}/features
export const POST = route(addProductFeatureContract, ({ ctx, params, body }) =>
  addProductFeature(ctx, params.id, body),
);
