import { route } from "@/server/http/route";
import { publishOfferContract } from "@/server/http/contracts/entitlements/offers";
import { publishOffer } from "@/server/domain/entitlements/offers/offer-lifecycle";

// POST /api/v1/provision/admin/offers/{id}/publish
export const POST = route(publishOfferContract, ({ ctx, params }) => publishOffer(ctx, params.id));
