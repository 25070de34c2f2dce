import { route } from "@/server/http/route";
import { consumerEntitlementPlansContract } from "@/server/http/contracts/entitlements/plan-changes";
import { listConsumerEntitlementPlans } from "@/server/domain/entitlements/plans/consumer-plans";

// GET /api/v1/provision/consumer/me/entitlements/{id}/plans
export const GET = route(consumerEntitlementPlansContract, ({ ctx, params }) =>
  listConsumerEntitlementPlans(ctx, params.id),
);
