import { route } from "@/server/http/route";
import { addAddOnFeatureContract } from "@/server/http/contracts/pricing/add-ons";
import { addAddOnFeature } from "@/server/domain/pricing/add-ons/add-add-on-feature";

// POST /api/v1/provision/admin/usage-plans/add-ons/{addOnId}/features/{featureCatalogId}
export const POST = route(addAddOnFeatureContract, ({ ctx, params }) =>
  addAddOnFeature(ctx, params.addOnId, params.featureCatalogId),
);
