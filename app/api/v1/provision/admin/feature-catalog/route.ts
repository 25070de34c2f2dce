import { route } from "@/server/http/route";
import {
  createFeatureCatalogContract,
  listFeatureCatalogContract,
} from "@/server/http/contracts/catalog/feature-catalog";
import { listFeatureCatalog } from "@/server/domain/catalog/feature-catalog/list-feature-catalog";
import { createFeatureCatalogEntry } from "@/server/domain/catalog/feature-catalog/create-feature-catalog-entry";

// GET /api/v1/provision/admin/feature-catalog
export const GET = route(listFeatureCatalogContract, ({ ctx, query }) => listFeatureCatalog(ctx, query));

// POST /api/v1/provision/admin/feature-catalog
export const POST = route(createFeatureCatalogContract, ({ ctx, body }) =>
  createFeatureCatalogEntry(ctx, body),
);
