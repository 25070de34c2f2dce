import { route } from "@/server/http/route";
import { changeFeatureCodeContract } from "@/server/http/contracts/catalog/feature-catalog";
import { changeFeatureCode } from "@/server/domain/catalog/feature-catalog/change-feature-code";

// PUT /api/v1/provision/admin/feature-catalog/{id}/code
export const PUT = route(changeFeatureCodeContract, ({ ctx, params, body }) =>
  changeFeatureCode(ctx, params.id, body),
);
