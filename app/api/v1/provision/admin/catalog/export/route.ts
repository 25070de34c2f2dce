import { route } from "@/server/http/route";
import { exportCatalogContract } from "@/server/http/contracts/portability/catalog";
import { exportCatalog } from "@/server/domain/portability/export/export-catalog";

// POST /api/v1/provision/admin/catalog/export
export const POST = route(exportCatalogContract, ({ ctx, body }) => exportCatalog(ctx, body));
