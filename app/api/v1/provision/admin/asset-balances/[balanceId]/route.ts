import { route } from "@/server/http/route";
import { deleteAssetBalanceContract } from "@/server/http/contracts/catalog/monitored-assets";
import { deleteAssetBalance } from "@/server/domain/catalog/monitored-assets/delete-asset-balance";

// DELETE /api/v1/provision/admin/asset-balances/{balanceId}
export const DELETE = route(deleteAssetBalanceContract, ({ ctx, params }) =>
  deleteAssetBalance(ctx, params.balanceId),
);
