import type { FullConfig } from "@playwright/test";
import { systemContext } from "../server/domain/context.ts";
import { startTestServer, TEST_APP_SECRET } from "../tests/helpers/test-server.ts";
import { createDb } from "../server/db/client.ts";
import { createTenant } from "../server/domain/cross-tenant.ts";
import { createUser } from "../server/domain/identity/users.ts";
import { E2E_PASSWORD, type E2eState } from "./support/state.ts";

/**
 * One production server on a fresh migrated database (the same helper the integration tests
 * use), and for each Playwright worker a world of its own: a vendor with a staff user and a
 * consumer, and a second vendor sharing one consumer email (to exercise "enter the vendor's
 * organisation id"). Workers run spec files side by side; each works in its own vendors, so no
 * test sees another's rows. Tests read their worker's world from E2E_STATE (support/state.ts).
 */
export default async function globalSetup(config: FullConfig) {
  const server = await startTestServer();
  // Tenant signing keys are sealed with APP_SECRET: seed with the server's.
  process.env.APP_SECRET = TEST_APP_SECRET;
  const db = createDb(server.databaseUrl, { max: 2 });
  try {
    const worlds: E2eState[] = [];
    for (let worker = 0; worker < config.workers; worker++) {
      // The first world keeps the plain names; the others carry their worker's number.
      const n = worker === 0 ? "" : ` ${worker + 1}`;
      const tag = worker === 0 ? "" : `+w${worker + 1}`;
      const vendor = await createTenant(db, {
        name: `E2E Vendor${n}`,
        adminEmail: `staff${tag}@e2e-vendor.example.com`,
        adminPassword: E2E_PASSWORD,
      });
      const other = await createTenant(db, {
        name: `E2E Other Vendor${n}`,
        adminEmail: `staff${tag}@e2e-other.example.com`,
        adminPassword: E2E_PASSWORD,
      });
      const consumer = await createUser(systemContext(db, vendor.tenantId, "e2e"), {
        kind: "consumer",
        email: `casey${tag}@customer.example.com`,
        name: "Casey Consumer",
        password: E2E_PASSWORD,
      });
      const shared = `pat${tag}@shared.example.com`;
      await createUser(systemContext(db, vendor.tenantId, "e2e"), {
        kind: "consumer",
        email: shared,
        name: "Pat at E2E Vendor",
        password: E2E_PASSWORD,
      });
      await createUser(systemContext(db, other.tenantId, "e2e"), {
        kind: "consumer",
        email: shared,
        name: "Pat at Other Vendor",
        password: E2E_PASSWORD,
      });
      worlds.push({
        baseUrl: server.baseUrl,
        databaseUrl: server.databaseUrl,
        tenantId: vendor.tenantId,
        tenantName: `E2E Vendor${n}`,
        tenantSlug: vendor.tenantSlug,
        staff: { email: vendor.adminEmail, password: E2E_PASSWORD },
        consumer: { email: consumer.email, password: E2E_PASSWORD, name: "Casey Consumer" },
        sharedConsumer: {
          email: shared,
          password: E2E_PASSWORD,
          otherTenantSlug: other.tenantSlug,
          otherTenantName: `E2E Other Vendor${n}`,
        },
      });
    }
    // Workers inherit the runner's environment.
    process.env.E2E_STATE = JSON.stringify(worlds);
  } catch (error) {
    await server.stop();
    throw error;
  } finally {
    await db.$disconnect();
  }
  return async () => {
    await server.stop();
  };
}
