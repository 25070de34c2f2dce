import { route } from "@/server/http/route";
import { adminResumeSubscriptionContract } from "@/server/http/contracts/webhooks";
import { resumeSubscription } from "@/server/domain/webhooks/resume-subscription";

// POST /api/v1/webhooks/subscriptions/{id}/resume
export const POST = route(adminResumeSubscriptionContract, ({ ctx, params }) => resumeSubscription(ctx, params.id));
