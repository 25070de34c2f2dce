import { route } from "@/server/http/route";
import { uploadEntitlementUsageContract } from "@/server/http/contracts/metering/usage";
import { uploadEntitlementUsage } from "@/server/domain/metering/usage/upload-usage";

// POST /api/v1/provision/usage/entitlements/{entitlementId}/transactions (operational credential)
export const POST = route(uploadEntitlementUsageContract, ({ ctx, params, body }) =>
  uploadEntitlementUsage(ctx, params.entitlementId, body),
);
