import { route } from "@/server/http/route";
import { adminRequeueDeadLetterContract } from "@/server/http/contracts/webhooks/webhooks";
import { requeueDeadLetter } from "@/server/domain/webhooks/delivery/requeue-dead-letter";

// POST /api/v1/webhooks/dead-letters/{deliveryId}/requeue
export const POST = route(adminRequeueDeadLetterContract, ({ ctx, params }) =>
  requeueDeadLetter(ctx, params.deliveryId),
);
