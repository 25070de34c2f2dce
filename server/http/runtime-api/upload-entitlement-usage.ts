import { route } from "../route.ts";
import { uploadEntitlementUsageContract } from "../contracts/metering/usage.ts";
import { uploadEntitlementUsage } from "../../domain/metering/usage/upload-usage.ts";

// POST /api/v1/provision/usage/entitlements/{entitlementId}/transactions (operational credential)
export const POST = route(uploadEntitlementUsageContract, ({ ctx, params, body }) =>
  uploadEntitlementUsage(ctx, params.entitlementId, body),
);
