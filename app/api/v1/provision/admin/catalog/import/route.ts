import { route } from "@/server/http/route";
import { importCatalogContract } from "@/server/http/contracts/portability/catalog";
import { importCatalog } from "@/server/domain/portability/import/import-catalog";

// POST /api/v1/provision/admin/catalog/import?dryRun=&conflictMode=&compare=
export const POST = route(importCatalogContract, ({ ctx, query, body }) => importCatalog(ctx, body, query));
