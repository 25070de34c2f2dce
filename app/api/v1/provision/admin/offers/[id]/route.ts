import { route } from "@/server/http/route";
import {
  deleteOfferContract,
  getOfferContract,
  replaceOfferContract,
  updateOfferContract,
} from "@/server/http/contracts/entitlements/offers";
import { deleteOffer, getOffer } from "@/server/domain/entitlements/offers/offer-lifecycle";
import { replaceOffer, updateOffer } from "@/server/domain/entitlements/offers/write-offer";

// GET /api/v1/provision/admin/offers/{id}
export const GET = route(getOfferContract, ({ ctx, params }) => getOffer(ctx, params.id));

// PUT /api/v1/provision/admin/offers/{id}
export const PUT = route(replaceOfferContract, ({ ctx, params, body }) => replaceOffer(ctx, params.id, body));

// PATCH /api/v1/provision/admin/offers/{id}
export const PATCH = route(updateOfferContract, ({ ctx, params, body }) => updateOffer(ctx, params.id, body));

// DELETE /api/v1/provision/admin/offers/{id}
export const DELETE = route(deleteOfferContract, ({ ctx, params }) => deleteOffer(ctx, params.id));
