import { route } from "@/server/http/route";
import { createAddOnContract, listAddOnsContract } from "@/server/http/contracts/pricing/add-ons";
import { listAddOns } from "@/server/domain/pricing/add-ons/list-add-ons";
import { createAddOn } from "@/server/domain/pricing/add-ons/create-add-on";

// GET /api/v1/provision/admin/usage-plans/add-ons
export const GET = route(listAddOnsContract, ({ ctx, query }) => listAddOns(ctx, query));

// POST /api/v1/provision/admin/usage-plans/add-ons
export const POST = route(createAddOnContract, ({ ctx, body }) => createAddOn(ctx, body));
