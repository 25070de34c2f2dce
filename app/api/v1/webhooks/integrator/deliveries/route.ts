import { route } from "@/server/http/route";
import { integratorListDeliveriesContract } from "@/server/http/contracts/webhooks/webhooks";
import { listDeliveries } from "@/server/domain/webhooks/delivery/list-deliveries";
import { integratorAccess } from "@/server/domain/webhooks/subscriptions/subscription-access";

// GET /api/v1/webhooks/integrator/deliveries
export const GET = route(integratorListDeliveriesContract, ({ ctx, query }) =>
  listDeliveries(ctx, integratorAccess(ctx), query),
);
