import { route } from "@/server/http/route";
import { listMonitoredAssetsContract } from "@/server/http/contracts/catalog/monitored-assets";
import { listMonitoredAssets } from "@/server/domain/catalog/monitored-assets/list-monitored-assets";

// GET /api/v1/provision/admin/monitored-assets
export const GET = route(listMonitoredAssetsContract, ({ ctx, query }) => listMonitoredAssets(ctx, query));
