import { route } from "@/server/http/route";
import { archiveAddOnContract } from "@/server/http/contracts/add-ons";
import { archiveAddOn } from "@/server/domain/catalog/archive-add-on";

// POST /api/v1/provision/admin/usage-plans/add-ons/{addOnId}/archive
export const POST = route(archiveAddOnContract, ({ ctx, params }) => archiveAddOn(ctx, params.addOnId));
