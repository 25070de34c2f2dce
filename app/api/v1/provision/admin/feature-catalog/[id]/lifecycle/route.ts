import { route } from "@/server/http/route";
import { setFeatureLifecycleContract } from "@/server/http/contracts/catalog/feature-catalog";
import { setFeatureLifecycle } from "@/server/domain/catalog/feature-catalog/set-feature-lifecycle";

// PUT /api/v1/provision/admin/feature-catalog/{id}/lifecycle
export const PUT = route(setFeatureLifecycleContract, ({ ctx, params, body }) =>
  setFeatureLifecycle(ctx, params.id, body),
);
