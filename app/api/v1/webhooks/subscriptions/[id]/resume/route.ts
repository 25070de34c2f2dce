import { route } from "@/server/http/route";
import { adminResumeSubscriptionContract } from "@/server/http/contracts/webhooks/webhooks";
import { resumeSubscription } from "@/server/domain/webhooks/subscriptions/resume-subscription";

// POST /api/v1/webhooks/subscriptions/{id}/resume
export const POST = route(adminResumeSubscriptionContract, ({ ctx, params }) =>
  resumeSubscription(ctx, params.id),
);
