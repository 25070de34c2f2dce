import { z } from "zod";
import { router, staffProcedure } from "../../init.ts";
import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import {
  ZOfferIdParams,
  ZOfferPatchRequest,
  ZOfferResponse,
  ZOfferWriteRequest,
} from "../../../domain/entitlements/offers/offer.schemas.ts";
import {
  ZEntitlementCreateRequest,
  ZEntitlementIdParams,
  ZEntitlementResponse,
  ZEntitlementUpdateRequest,
} from "../../../domain/entitlements/entitlement/entitlement.schemas.ts";
import {
  ZAssignPlanRequest,
  ZPlanChangeRequestResponse,
  ZPlanChangeReview,
} from "../../../domain/entitlements/plans/plan-change.schemas.ts";
import {
  ZAddOnGrantCreateRequest,
  ZAddOnGrantResponse,
} from "../../../domain/entitlements/add-on-grants/add-on-grant.schemas.ts";
import { ZBillingFields, ZBillingResponse } from "../../../domain/entitlements/billing/billing.schemas.ts";
import {
  ZEffectiveFeaturesResponse,
  getEffectiveFeatures,
} from "../../../domain/entitlements/entitlement/effective-features.ts";
import { listOffers } from "../../../domain/entitlements/offers/list-offers.ts";
import { cloneOffer, createOffer, updateOffer } from "../../../domain/entitlements/offers/write-offer.ts";
import { renewEntitlement } from "../../../domain/entitlements/entitlement/renew-entitlement.ts";
import {
  ZEntitlementBulkRenewRequest,
  ZEntitlementBulkRenewResult,
  ZEntitlementRenewRequest,
} from "../../../domain/entitlements/entitlement/renewal.schemas.ts";
import { renewEntitlements } from "../../../domain/entitlements/entitlement/renew-entitlements.ts";
import { deleteOffer, getOffer, publishOffer } from "../../../domain/entitlements/offers/offer-lifecycle.ts";
import {
  getEntitlement,
  listEntitlements,
} from "../../../domain/entitlements/entitlement/list-entitlements.ts";
import { createEntitlement } from "../../../domain/entitlements/entitlement/create-entitlement.ts";
import {
  deleteEntitlement,
  setActivationsEnabled,
  updateEntitlement,
} from "../../../domain/entitlements/entitlement/update-entitlement.ts";
import { assignPlan } from "../../../domain/entitlements/plans/assign-plan.ts";
import {
  grantAddOn,
  listAddOnGrants,
  revokeAddOnGrant,
} from "../../../domain/entitlements/add-on-grants/add-on-grants.ts";
import { getBilling, replaceBilling } from "../../../domain/entitlements/billing/billing.ts";
import {
  listPlanChangeRequests,
  reviewPlanChangeRequest,
} from "../../../domain/entitlements/plans/plan-change-requests.ts";

const ZEntitlementListQuery = ZListQuery.extend({
  expiringWithinDays: z.number().int().min(0).max(36_500).optional(),
});

/** Back-office adapters over server/domain/entitlements: offers, entitlements, plans, grants, billing. */
export const entitlementsRouter = router({
  offers: staffProcedure("entitlements")
    .input(ZListQuery)
    .output(ZPage(ZOfferResponse))
    .query(({ ctx, input }) => listOffers(ctx.domain, input)),
  offer: staffProcedure("entitlements")
    .input(ZOfferIdParams)
    .output(ZOfferResponse)
    .query(({ ctx, input }) => getOffer(ctx.domain, input.id)),
  createOffer: staffProcedure("entitlements")
    .input(ZOfferWriteRequest)
    .output(ZOfferResponse)
    .mutation(({ ctx, input }) => createOffer(ctx.domain, input)),
  /** PATCH /admin/offers/{id}: the given fields replace the offer's; the merged offer is validated whole. */
  updateOffer: staffProcedure("entitlements")
    .input(ZOfferIdParams.extend({ edit: ZOfferPatchRequest }))
    .output(ZOfferResponse)
    .mutation(({ ctx, input }) => updateOffer(ctx.domain, input.id, input.edit)),
  cloneOffer: staffProcedure("entitlements")
    .input(
      ZOfferIdParams.extend({
        name: z.string().trim().min(1, "A name cannot be empty.").max(200).optional(),
      }),
    )
    .output(ZOfferResponse)
    .mutation(({ ctx, input }) => cloneOffer(ctx.domain, input.id, input.name)),
  publishOffer: staffProcedure("entitlements")
    .input(ZOfferIdParams)
    .output(ZOfferResponse)
    .mutation(({ ctx, input }) => publishOffer(ctx.domain, input.id)),
  deleteOffer: staffProcedure("entitlements")
    .input(ZOfferIdParams)
    .mutation(({ ctx, input }) => deleteOffer(ctx.domain, input.id)),

  list: staffProcedure("entitlements")
    .input(ZEntitlementListQuery)
    .output(ZPage(ZEntitlementResponse))
    .query(({ ctx, input }) => listEntitlements(ctx.domain, input)),
  get: staffProcedure("entitlements")
    .input(ZEntitlementIdParams)
    .output(ZEntitlementResponse)
    .query(({ ctx, input }) => getEntitlement(ctx.domain, input.id)),
  create: staffProcedure("entitlements")
    .input(ZEntitlementCreateRequest)
    .output(ZEntitlementResponse)
    .mutation(({ ctx, input }) => createEntitlement(ctx.domain, input)),
  update: staffProcedure("entitlements")
    .input(ZEntitlementIdParams.extend({ edit: ZEntitlementUpdateRequest }))
    .output(ZEntitlementResponse)
    .mutation(({ ctx, input }) => updateEntitlement(ctx.domain, input.id, input.edit)),
  archive: staffProcedure("entitlements")
    .input(ZEntitlementIdParams)
    .mutation(({ ctx, input }) => deleteEntitlement(ctx.domain, input.id)),
  setActivations: staffProcedure("entitlements")
    .input(ZEntitlementIdParams.extend({ enabled: z.boolean() }))
    .output(ZEntitlementResponse)
    .mutation(({ ctx, input }) => setActivationsEnabled(ctx.domain, input.id, input.enabled)),
  /** POST /operational/entitlements/{id}/renew: a later end of validity (never shorter). */
  renew: staffProcedure("entitlements")
    .input(ZEntitlementIdParams.extend({ renewal: ZEntitlementRenewRequest }))
    .output(ZEntitlementResponse)
    .mutation(({ ctx, input }) => renewEntitlement(ctx.domain, input.id, input.renewal)),
  /** The list's "Extend selected": up to 100 renewals, each its own transaction, with each one's outcome. */
  renewMany: staffProcedure("entitlements")
    .input(ZEntitlementBulkRenewRequest)
    .output(ZEntitlementBulkRenewResult)
    .mutation(({ ctx, input }) => renewEntitlements(ctx.domain, input)),
  effectiveFeatures: staffProcedure("entitlements")
    .input(ZEntitlementIdParams)
    .output(ZEffectiveFeaturesResponse)
    .query(({ ctx, input }) => getEffectiveFeatures(ctx.domain, input.id)),
  assignPlan: staffProcedure("entitlements")
    .input(ZEntitlementIdParams.extend({ plan: ZAssignPlanRequest }))
    .output(ZEntitlementResponse)
    .mutation(({ ctx, input }) => assignPlan(ctx.domain, input.id, input.plan)),

  grants: staffProcedure("entitlements")
    .input(ZEntitlementIdParams)
    .output(ZPage(ZAddOnGrantResponse))
    .query(({ ctx, input }) => listAddOnGrants(ctx.domain, input.id, { pageNumber: 1, pageSize: 100 })),
  grant: staffProcedure("entitlements")
    .input(ZEntitlementIdParams.extend({ grant: ZAddOnGrantCreateRequest }))
    .output(ZAddOnGrantResponse)
    .mutation(({ ctx, input }) => grantAddOn(ctx.domain, input.id, input.grant)),
  revokeGrant: staffProcedure("entitlements")
    .input(ZEntitlementIdParams.extend({ grantId: z.string().uuid() }))
    .output(ZAddOnGrantResponse)
    .mutation(({ ctx, input }) => revokeAddOnGrant(ctx.domain, input.id, input.grantId)),

  billing: staffProcedure("entitlements")
    .input(ZEntitlementIdParams)
    .output(ZBillingResponse)
    .query(({ ctx, input }) => getBilling(ctx.domain, input.id)),
  replaceBilling: staffProcedure("entitlements")
    .input(ZEntitlementIdParams.extend({ billing: ZBillingFields }))
    .output(ZBillingResponse)
    .mutation(({ ctx, input }) => replaceBilling(ctx.domain, input.id, input.billing)),

  planChangeRequests: staffProcedure("entitlements")
    .input(ZListQuery)
    .output(ZPage(ZPlanChangeRequestResponse))
    .query(({ ctx, input }) => listPlanChangeRequests(ctx.domain, input)),
  reviewPlanChange: staffProcedure("entitlements")
    .input(ZPlanChangeReview.extend({ id: z.string().uuid() }))
    .output(ZPlanChangeRequestResponse)
    .mutation(({ ctx, input }) => reviewPlanChangeRequest(ctx.domain, input.id, input)),
});
