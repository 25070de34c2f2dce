import { router } from "./init.ts";
import { tagsRouter } from "./routers/catalog/tags.ts";
import { productsRouter } from "./routers/catalog/products.ts";
import { featureCatalogRouter } from "./routers/catalog/feature-catalog.ts";
import { monitoredAssetsRouter } from "./routers/catalog/monitored-assets.ts";
import { clientsRouter } from "./routers/identity/clients.ts";
import { meRouter } from "./routers/identity/me.ts";
import { suitesRouter } from "./routers/pricing/suites.ts";
import { planSetsRouter } from "./routers/pricing/plan-sets.ts";
import { addOnsRouter } from "./routers/pricing/add-ons.ts";
import { ratingCampaignsRouter } from "./routers/catalog/rating-campaigns.ts";
import { webhooksRouter } from "./routers/webhooks/webhooks.ts";
import { balancesRouter } from "./routers/metering/balances.ts";
import { metersRouter } from "./routers/metering/meters.ts";
import { licensingRouter } from "./routers/licensing/licensing.ts";
import { entitlementsRouter } from "./routers/entitlements/entitlements.ts";
import { customersRouter } from "./routers/customers/customers.ts";
import { offlineActivationsRouter } from "./routers/licensing/offline-activations.ts";
import { sessionsRouter } from "./routers/licensing/sessions.ts";
import { catalogTransferRouter } from "./routers/portability/catalog-transfer.ts";
import { reportsRouter } from "./routers/reports/reports.ts";
import { operationsRouter } from "./routers/operations/operations.ts";
import { staffUsersRouter } from "./routers/identity/staff-users.ts";
import { auditRouter } from "./routers/audit/audit.ts";

export const appRouter = router({
  tags: tagsRouter,
  products: productsRouter,
  featureCatalog: featureCatalogRouter,
  monitoredAssets: monitoredAssetsRouter,
  clients: clientsRouter,
  me: meRouter,
  suites: suitesRouter,
  planSets: planSetsRouter,
  addOns: addOnsRouter,
  ratingCampaigns: ratingCampaignsRouter,
  webhooks: webhooksRouter,
  licensing: licensingRouter,
  entitlements: entitlementsRouter,
  customers: customersRouter,
  offlineActivations: offlineActivationsRouter,
  sessions: sessionsRouter,
  balances: balancesRouter,
  catalogTransfer: catalogTransferRouter,
  reports: reportsRouter,
  meters: metersRouter,
  operations: operationsRouter,
  staffUsers: staffUsersRouter,
  audit: auditRouter,
});

export type AppRouter = typeof appRouter;
