import { route } from "@/server/http/route";
import { archiveAddOnContract } from "@/server/http/contracts/pricing/add-ons";
import { archiveAddOn } from "@/server/domain/pricing/add-ons/archive-add-on";

// POST /api/v1/provision/admin/usage-plans/add-ons/{addOnId}/archive
export const POST = route(archiveAddOnContract, ({ ctx, params }) => archiveAddOn(ctx, params.addOnId));
