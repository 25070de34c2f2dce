import { route } from "@/server/http/route";
import { createOfferContract, listOffersContract } from "@/server/http/contracts/entitlements/offers";
import { listOffers } from "@/server/domain/entitlements/offers/list-offers";
import { createOffer } from "@/server/domain/entitlements/offers/write-offer";

// GET /api/v1/provision/admin/offers
export const GET = route(listOffersContract, ({ ctx, query }) => listOffers(ctx, query));

// POST /api/v1/provision/admin/offers
export const POST = route(createOfferContract, ({ ctx, body }) => createOffer(ctx, body));
