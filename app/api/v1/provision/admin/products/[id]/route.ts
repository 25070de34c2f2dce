import { route } from "@/server/http/route";
import {
  deleteProductContract,
  getProductContract,
  replaceProductContract,
  updateProductContract,
} from "@/server/http/contracts/catalog/products";
import { getProduct } from "@/server/domain/catalog/products/get-product";
import { replaceProduct } from "@/server/domain/catalog/products/replace-product";
import { updateProduct } from "@/server/domain/catalog/products/update-product";
import { deleteProduct } from "@/server/domain/catalog/products/delete-product";

// GET /api/v1/provision/admin/products/{id}
export const GET = route(getProductContract, ({ ctx, params }) => getProduct(ctx, params.id));

// PUT /api/v1/provision/admin/products/{id}
export const PUT = route(replaceProductContract, ({ ctx, params, body }) =>
  replaceProduct(ctx, params.id, body),
);

// PATCH /api/v1/provision/admin/products/{id}
export const PATCH = route(updateProductContract, ({ ctx, params, body }) =>
  updateProduct(ctx, params.id, body),
);

// DELETE /api/v1/provision/admin/products/{id}
export const DELETE = route(deleteProductContract, ({ ctx, params }) => deleteProduct(ctx, params.id));
