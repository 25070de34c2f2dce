import { route } from "@/server/http/route";
import { getBillingContract, replaceBillingContract } from "@/server/http/contracts/entitlements/billing";
import { getBilling, replaceBilling } from "@/server/domain/entitlements/billing/billing";

// GET /api/v1/provision/admin/entitlements/{id}/billing
export const GET = route(getBillingContract, ({ ctx, params }) => getBilling(ctx, params.id));

// PUT /api/v1/provision/admin/entitlements/{id}/billing
export const PUT = route(replaceBillingContract, ({ ctx, params, body }) =>
  replaceBilling(ctx, params.id, body),
);
