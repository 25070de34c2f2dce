import { route } from "@/server/http/route";
import { adminGetDeliveryContract } from "@/server/http/contracts/webhooks/webhooks";
import { getDelivery } from "@/server/domain/webhooks/delivery/get-delivery";

// GET /api/v1/webhooks/deliveries/{envelopeId}
export const GET = route(adminGetDeliveryContract, ({ ctx, params, query }) =>
  getDelivery(ctx, params.envelopeId, query.subscriptionId),
);
