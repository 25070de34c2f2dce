import { route } from "@/server/http/route";
import { adminListDeliveriesContract } from "@/server/http/contracts/webhooks/webhooks";
import { listDeliveries } from "@/server/domain/webhooks/delivery/list-deliveries";
import { adminAccess } from "@/server/domain/webhooks/subscriptions/subscription-access";

// GET /api/v1/webhooks/deliveries
export const GET = route(adminListDeliveriesContract, ({ ctx, query }) =>
  listDeliveries(ctx, adminAccess, query),
);
