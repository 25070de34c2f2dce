import { z } from "zod";
import type { DomainContext } from "../context.ts";
import type { Page, TListQuery } from "../../core/pagination.ts";
import { notFound } from "../../core/errors.ts";
import type { CsvBatches, PreparedExport } from "../reports/report-export.ts";
import { exportColumns } from "./list-export-columns.ts";
import { csvExport } from "../reports/report-export.ts";
import { listFeatureCatalog } from "../catalog/feature-catalog/list-feature-catalog.ts";
import { ZFeatureCatalogResponse } from "../catalog/feature-catalog/feature-catalog.schemas.ts";
import { listMonitoredAssets } from "../catalog/monitored-assets/list-monitored-assets.ts";
import { ZMonitoredAssetResponse } from "../catalog/monitored-assets/monitored-asset.schemas.ts";
import { listProducts } from "../catalog/products/list-products.ts";
import { ZProductResponse } from "../catalog/products/product.schemas.ts";
import { listRatingCampaigns } from "../catalog/rating-campaigns/list-rating-campaigns.ts";
import { ZRatingCampaignResponse } from "../catalog/rating-campaigns/rating-campaign.schemas.ts";
import { listTags } from "../catalog/tags/list-tags.ts";
import { ZTagResponse } from "../catalog/tags/tag.schemas.ts";
import { listOffers } from "../entitlements/offers/list-offers.ts";
import { ZOfferResponse } from "../entitlements/offers/offer.schemas.ts";
import { listEntitlements } from "../entitlements/entitlement/list-entitlements.ts";
import { ZEntitlementResponse } from "../entitlements/entitlement/entitlement.schemas.ts";
import { listPlanChangeRequests } from "../entitlements/plans/plan-change-requests.ts";
import { ZPlanChangeRequestResponse } from "../entitlements/plans/plan-change.schemas.ts";
import { listSessions } from "../licensing/sessions/list-sessions.ts";
import { listSessionsByUser } from "../licensing/sessions/list-sessions-by-user.ts";
import { ZSessionResponse } from "../licensing/sessions/session-read-model.ts";
import { listActivationCodes } from "../licensing/activation-codes/list-activation-codes.ts";
import { ZActivationCodeResponse } from "../licensing/activation-codes/activation-code.schemas.ts";
import { listAddOns } from "../pricing/add-ons/list-add-ons.ts";
import { ZAddOnResponse } from "../pricing/add-ons/add-on.schemas.ts";
import { listPlanSets } from "../pricing/plan-sets/list-plan-sets.ts";
import { ZPlanSetResponse } from "../pricing/plan-sets/plan-set.schemas.ts";
import { listSuites } from "../pricing/suites/list-suites.ts";
import { ZSuiteResponse } from "../pricing/suites/suite.schemas.ts";
import { listSubscriptions } from "../webhooks/subscriptions/list-subscriptions.ts";
import { ZSubscriptionResponse, subscriptionStates } from "../webhooks/subscriptions/subscription.schemas.ts";
import { adminAccess } from "../webhooks/subscriptions/subscription-access.ts";
import { listDeliveries } from "../webhooks/delivery/list-deliveries.ts";
import { listDeadLetters } from "../webhooks/delivery/list-dead-letters.ts";
import { ZDeliverySummary } from "../webhooks/delivery/delivery.schemas.ts";
import { listCustomerUsers } from "../customers/customer-users.ts";
import { listCustomerOrganizations } from "../customers/customer-organizations.ts";
import { ZCustomerOrganizationResponse, ZCustomerUserResponse } from "../customers/customer.schemas.ts";

/**
 * CSV exports of the back office's list pages (docs/decisions.md "Operations"): the same
 * domain list read as the page, with the page's filter and sort (and its extra switches), read a
 * batch at a time and written as it is read (server/http/csv.ts streams the batches), so a
 * hundred thousand rows never sit in memory. Columns are flat and stable per list, with names beside
 * ids (list-export-columns.ts); no cell is JSON.
 */
const BATCH = 500;

/** The query string of an export: the list's filter and sort, and the switches some lists have. */
export const ZListExportQuery = z.object({
  filter: z.string().max(4000).optional(),
  sortOrder: z.string().max(400).optional(),
  includeDeleted: z.enum(["true", "false"]).optional(),
  includeImplicit: z.enum(["true", "false"]).optional(),
  expiringWithinDays: z.coerce.number().int().min(0).max(36_500).optional(),
  state: z.enum(subscriptionStates).optional(),
  /** Sessions of one customer user (the sessions page's by-user view). */
  userId: z.string().uuid().optional(),
});
export type TListExportQuery = z.infer<typeof ZListExportQuery>;

type Lister = (ctx: DomainContext, page: TListQuery, q: TListExportQuery) => Promise<Page<object>>;
type ListExport = { schema: z.ZodObject; list: Lister };

const flag = (v: "true" | "false" | undefined) => v === "true";

export const listExports: Record<string, ListExport> = {
  entitlements: {
    schema: ZEntitlementResponse,
    list: (ctx, page, q) => listEntitlements(ctx, { ...page, expiringWithinDays: q.expiringWithinDays }),
  },
  offers: { schema: ZOfferResponse, list: (ctx, page) => listOffers(ctx, page) },
  "plan-change-requests": {
    schema: ZPlanChangeRequestResponse,
    list: (ctx, page) => listPlanChangeRequests(ctx, page),
  },
  "customer-users": { schema: ZCustomerUserResponse, list: (ctx, page) => listCustomerUsers(ctx, page) },
  "customer-organizations": {
    schema: ZCustomerOrganizationResponse,
    list: (ctx, page) => listCustomerOrganizations(ctx, page),
  },
  sessions: {
    schema: ZSessionResponse,
    list: (ctx, page, q) => (q.userId ? listSessionsByUser(ctx, q.userId, page) : listSessions(ctx, page)),
  },
  "activation-codes": {
    schema: ZActivationCodeResponse,
    list: (ctx, page) => listActivationCodes(ctx, page),
  },
  products: {
    schema: ZProductResponse,
    list: (ctx, page, q) => listProducts(ctx, { ...page, includeDeleted: flag(q.includeDeleted) }),
  },
  "feature-catalog": {
    schema: ZFeatureCatalogResponse,
    list: (ctx, page, q) => listFeatureCatalog(ctx, { ...page, includeDeleted: flag(q.includeDeleted) }),
  },
  "monitored-assets": {
    schema: ZMonitoredAssetResponse,
    list: (ctx, page) => listMonitoredAssets(ctx, page),
  },
  tags: {
    schema: ZTagResponse,
    list: (ctx, page, q) => listTags(ctx, { ...page, includeDeleted: flag(q.includeDeleted) }),
  },
  "rating-campaigns": {
    schema: ZRatingCampaignResponse,
    list: (ctx, page) => listRatingCampaigns(ctx, page),
  },
  suites: {
    schema: ZSuiteResponse,
    list: (ctx, page, q) => listSuites(ctx, { ...page, includeImplicit: flag(q.includeImplicit) }),
  },
  "plan-sets": { schema: ZPlanSetResponse, list: (ctx, page) => listPlanSets(ctx, page) },
  "add-ons": { schema: ZAddOnResponse, list: (ctx, page) => listAddOns(ctx, page) },
  "webhook-subscriptions": {
    schema: ZSubscriptionResponse,
    list: (ctx, page, q) => listSubscriptions(ctx, adminAccess, { ...page, state: q.state }),
  },
  "webhook-deliveries": {
    schema: ZDeliverySummary,
    list: (ctx, page) => listDeliveries(ctx, adminAccess, page),
  },
  "webhook-dead-letters": { schema: ZDeliverySummary, list: (ctx, page) => listDeadLetters(ctx, page) },
};

async function* pages(
  ctx: DomainContext,
  spec: ListExport,
  q: TListExportQuery,
  rows: ReturnType<typeof exportColumns>["rows"],
): CsvBatches {
  for (let pageNumber = 1; ; pageNumber++) {
    const page = await spec.list(
      ctx,
      { pageNumber, pageSize: BATCH, filter: q.filter, sortOrder: q.sortOrder } as TListQuery,
      q,
    );
    if (page.items.length) yield await rows(ctx, page.items as Record<string, unknown>[]);
    if (!page.hasNextPage || page.items.length === 0) return;
  }
}

/** The export of list `key` for the query string, checked; an unknown list is 404. */
export function prepareListExport(key: string, raw: Record<string, string>): PreparedExport {
  if (!Object.hasOwn(listExports, key)) throw notFound("List");
  const spec = listExports[key];
  const day = new Date().toISOString().slice(0, 10);
  const columns = exportColumns(spec.schema);
  return csvExport({
    key,
    query: ZListExportQuery,
    columns: columns.headers,
    filename: () => `${key}-${day}.csv`,
    rows: (ctx, q) => pages(ctx, spec, q, columns.rows),
  }).prepare(raw);
}
