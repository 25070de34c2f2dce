import { route } from "@/server/http/route";
import { createProductContract, listProductsContract } from "@/server/http/contracts/catalog/products";
import { listProducts } from "@/server/domain/catalog/products/list-products";
import { createProduct } from "@/server/domain/catalog/products/create-product";

// GET /api/v1/provision/admin/products
export const GET = route(listProductsContract, ({ ctx, query }) => listProducts(ctx, query));

// POST /api/v1/provision/admin/products
export const POST = route(createProductContract, ({ ctx, body }) => createProduct(ctx, body));
