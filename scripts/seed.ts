/**
 * `npm run seed`: a demo tenant to click through. Safe to run again: the tenant, users and tags
 * are reused, and each run registers a fresh API client (secrets are only ever shown once).
 */
import { systemContext } from "../server/domain/context.ts";
import { closeDb, createDb, type Db } from "../server/db/client.ts";
import { tenantDb } from "../server/db/tenant-db.ts";
import { createTenant } from "../server/domain/cross-tenant.ts";
import { createClient } from "../server/domain/identity/oauth-clients.ts";
import { createUser, emailKey } from "../server/domain/identity/users.ts";
import { createTag } from "../server/domain/catalog/tags/create-tag.ts";
import type { DomainContext } from "../server/domain/context.ts";
import { resolveRuntimeEnv, serverUrlForLinks } from "./lib/runtime-env.ts";
import { seedCatalogPricing } from "./seed/catalog-pricing.ts";
import { seedCatalogProducts } from "./seed/catalog-products.ts";
import { seedActivationCode, seedDemoSessions } from "./seed/licensing.ts";
import { seedEntitlements } from "./seed/entitlements.ts";

const DEMO = {
  slug: "demo",
  name: "Demo Software Inc.",
  adminEmail: "admin@demo.example.com",
  adminPassword: "demo-admin-password",
  consumerEmail: "customer@demo.example.com",
  consumerPassword: "demo-customer-password",
};

const demoTags = [
  { scope: "Product", name: "Desktop", color: "#2563eb" },
  { scope: "Product", name: "Server", color: "#7c3aed" },
  { scope: "Product", name: "Beta", color: "#f59e0b" },
  { scope: "FeatureCatalog", name: "Premium", color: "#16a34a" },
  { scope: "FeatureCatalog", name: "Usage-based", color: null },
  { scope: "Offer", name: "Partner channel", color: "#db2777" },
] as const;

/**
 * The seed writes well-known passwords and an all-scopes API client: run against a database that
 * already serves other vendors (production, say), it would open a door into it. So it refuses a
 * database holding any tenant but the demo one unless forced (`npm run seed -- --force`).
 */
async function refuseForeignTenants(db: Db): Promise<boolean> {
  const forced = process.argv.includes("--force") || process.env.SEED_FORCE === "1";
  const others = await db.tenant.count({ where: { slug: { not: DEMO.slug } } });
  if (others === 0 || forced) return false;
  process.stderr.write(
    `Refusing to seed: this database already has ${others} tenant(s) besides the demo tenant, so it is not a ` +
      "demo database. The seed adds well-known sign-ins and an all-scopes API client. Run `npm run seed -- --force` " +
      "to seed it anyway.\n",
  );
  return true;
}

async function main() {
  // Read before resolveRuntimeEnv fills in defaults: links follow what this command was told, else the running server.
  const url = await serverUrlForLinks();
  const runtime = await resolveRuntimeEnv();
  process.env.APP_SECRET = runtime.env.APP_SECRET;
  const db = createDb(runtime.env.DATABASE_URL!, { max: 2 });
  try {
    if (await refuseForeignTenants(db)) {
      process.exitCode = 2;
      return;
    }
    let tenant = await db.tenant.findUnique({ where: { slug: DEMO.slug } });
    if (!tenant) {
      const created = await createTenant(db, {
        name: DEMO.name,
        slug: DEMO.slug,
        adminEmail: DEMO.adminEmail,
        adminPassword: DEMO.adminPassword,
      });
      tenant = await db.tenant.findUniqueOrThrow({ where: { id: created.tenantId } });
    }
    if (
      !(await db.user.findUnique({
        where: { tenantId_emailKey: { tenantId: tenant.id, emailKey: emailKey(DEMO.consumerEmail) } },
      }))
    ) {
      await createUser(systemContext(db, tenant.id, "seed"), {
        email: DEMO.consumerEmail,
        password: DEMO.consumerPassword,
        kind: "consumer",
        name: "Casey Customer",
      });
    }
    const ctx: DomainContext = {
      tenantId: tenant.id,
      db: tenantDb(db, tenant.id),
      actor: { kind: "system", id: "seed" },
    };
    for (const tag of demoTags) {
      const exists = await ctx.db.tag.findFirst({
        where: { scope: tag.scope, activeNameKey: tag.name.toLowerCase() },
      });
      if (!exists) await createTag(ctx, tag);
    }
    await seedCatalogProducts(ctx);
    // Pricing of the demo products (after the products are seeded): suite, published plan set, add-on, rating campaign.
    const demoProducts = await ctx.db.product.findMany({
      where: { isDeleted: false },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: 2,
      select: { id: true, name: true },
    });
    const pricing = await seedCatalogPricing(ctx, demoProducts);
    const entitlements = await seedEntitlements(ctx, pricing?.suiteId ?? null, DEMO.consumerEmail);
    // After the offer and entitlement seeds: a code on the first Published entitlement.
    const activation = await seedActivationCode(ctx);
    const demoSessions = activation ? await seedDemoSessions(db, activation.code) : [];
    const { client, clientSecret } = await createClient(systemContext(db, tenant.id, "seed"), {
      name: `Seed ${new Date().toISOString()}`,
      kind: "admin",
      scopes: ["provision.*"],
    });
    process.stdout.write(
      [
        `Demo tenant "${tenant.name}" (${tenant.id}, organisation id "${tenant.slug}")`,
        "",
        `Back office  ${url}/admin/sign-in   ${DEMO.adminEmail} / ${DEMO.adminPassword}`,
        `Portal       ${url}/portal/sign-in  ${DEMO.consumerEmail} / ${DEMO.consumerPassword}`,
        "",
        `API client   ${client.clientId} / ${clientSecret}  (scopes provision.*; shown once)`,
        `  curl -s -d grant_type=client_credentials -d client_id=${client.clientId} -d client_secret=${clientSecret} -d 'scope=provision.tag.*' ${url}/auth/connect/token`,
        `  curl -s -H "Authorization: Bearer $TOKEN" ${url}/api/v1/provision/admin/tags`,
        activation
          ? `Activation code  ${activation.code}  (entitlement ${activation.entitlementId}; ${url}/admin/devices?entitlementId=${activation.entitlementId})`
          : "Activation code  skipped: no Published entitlement yet",
        `Sessions     ${url}/admin/sessions  (${demoSessions.length} demo device(s) activated with that code)`,
        entitlements
          ? `Entitlement  ${url}/admin/entitlements/${entitlements.entitlementId}  (from a Published offer, with an add-on grant)`
          : "Entitlements skipped: no published demo plan set",
        pricing
          ? `Pricing      ${url}/admin/suites/${pricing.suiteId}  (suite, published plan set, add-on, running rating campaign)`
          : "Pricing      skipped: the demo catalog has fewer than two products",
        "",
      ].join("\n"),
    );
  } finally {
    await closeDb(db);
    await runtime.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
