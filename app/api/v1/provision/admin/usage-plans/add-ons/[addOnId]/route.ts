import { route } from "@/server/http/route";
import {
  deleteAddOnContract,
  getAddOnContract,
  updateAddOnContract,
} from "@/server/http/contracts/pricing/add-ons";
import { getAddOn } from "@/server/domain/pricing/add-ons/get-add-on";
import { updateAddOn } from "@/server/domain/pricing/add-ons/update-add-on";
import { deleteAddOn } from "@/server/domain/pricing/add-ons/delete-add-on";

// GET /api/v1/provision/admin/usage-plans/add-ons/{addOnId}
export const GET = route(getAddOnContract, ({ ctx, params }) => getAddOn(ctx, params.addOnId));

// PUT /api/v1/provision/admin/usage-plans/add-ons/{addOnId}
export const PUT = route(updateAddOnContract, ({ ctx, params, body }) =>
  updateAddOn(ctx, params.addOnId, body),
);

// DELETE /api/v1/provision/admin/usage-plans/add-ons/{addOnId}
export const DELETE = route(deleteAddOnContract, ({ ctx, params }) => deleteAddOn(ctx, params.addOnId));
