import { route } from "@/server/http/route";
import { manualBillingEventContract } from "@/server/http/contracts/entitlements/billing";
import { recordManualBillingEvent } from "@/server/domain/entitlements/billing/billing";

// POST /api/v1/provision/admin/entitlements/{id}/billing/manual-events
export const POST = route(manualBillingEventContract, ({ ctx, params, body }) =>
  recordManualBillingEvent(ctx, params.id, body),
);
