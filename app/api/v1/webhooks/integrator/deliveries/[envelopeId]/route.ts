import { route } from "@/server/http/route";
import { integratorGetDeliveryContract } from "@/server/http/contracts/webhooks/webhooks";
import { getIntegratorDelivery } from "@/server/domain/webhooks/delivery/get-delivery";
import { integratorAccess } from "@/server/domain/webhooks/subscriptions/subscription-access";

// GET /api/v1/webhooks/integrator/deliveries/{envelopeId}
export const GET = route(integratorGetDeliveryContract, ({ ctx, params, query }) =>
  getIntegratorDelivery(ctx, integratorAccess(ctx), params.envelopeId, query.subscriptionId),
);
