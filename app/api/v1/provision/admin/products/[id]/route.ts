import { route } from "@/server/http/route";
import { deleteProductContract, getProductContract, replaceProductContract, updateProductContract } from "@/server/http/contracts/products";
import { getProduct } from "@/server/domain/catalog/get-product";
import { replaceProduct } from "@/server/domain/catalog/replace-product";
import { updateProduct } from "@/server/domain/catalog/update-product";
import { deleteProduct } from "@/server/domain/catalog/delete-product";

// GET /api/v1/provision/admin/products/{id}
export const GET = route(getProductContract, ({ ctx, params }) => getProduct(ctx, params.id));

// PUT /api/v1/provision/admin/products/{id}
export const PUT = route(replaceProductContract, ({ ctx, params, body }) => replaceProduct(ctx, params.id, body));

// PATCH /api/v1/provision/admin/products/{id}
export const PATCH = route(updateProductContract, ({ ctx, params, body }) => updateProduct(ctx, params.id, body));

// DELETE /api/v1/provision/admin/products/{id}
export const DELETE = route(deleteProductContract, ({ ctx, params }) => deleteProduct(ctx, params.id));
