import { router } from "./init.ts";
import { tagsRouter } from "./routers/tags.ts";
import { productsRouter } from "./routers/products.ts";
import { featureCatalogRouter } from "./routers/feature-catalog.ts";
import { monitoredAssetsRouter } from "./routers/monitored-assets.ts";
import { clientsRouter } from "./routers/clients.ts";
import { meRouter } from "./routers/me.ts";
import { suitesRouter } from "./routers/suites.ts";
import { planSetsRouter } from "./routers/plan-sets.ts";
import { addOnsRouter } from "./routers/add-ons.ts";
import { ratingCampaignsRouter } from "./routers/rating-campaigns.ts";
import { webhooksRouter } from "./routers/webhooks.ts";
import { licensingRouter } from "./routers/licensing.ts";
import { entitlementsRouter } from "./routers/entitlements.ts";
import { customersRouter } from "./routers/customers.ts";
import { offlineActivationsRouter } from "./routers/offline-activations.ts";
import { sessionsRouter } from "./routers/sessions.ts";

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
});

export type AppRouter = typeof appRouter;
