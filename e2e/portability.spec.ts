import { readFileSync } from "node:fs";
import { createDb } from "../server/db/client.ts";
import { tenantDb } from "../server/db/tenant-db.ts";
import { createTenant } from "../server/domain/identity/create-tenant.ts";
import { seedDemoCatalogInto } from "../tests/int/portability/demo-catalog.ts";
import { expect, open, screenshot, signIn, test } from "./support/fixtures.ts";
import { E2E_PASSWORD, type E2eState } from "./support/state.ts";

const sections = [
  "Tags",
  "Products",
  "Feature catalog",
  "Monitored assets",
  "Suites",
  "Plan sets",
  "Add-ons",
  "Offers",
  "Rating campaigns",
];

/** Two vendors of their own, each with a staff user: one with the demo catalog, one empty. */
async function demoAndEmptyVendors(state: E2eState) {
  const db = createDb(state.databaseUrl, { max: 1 });
  try {
    const run = Date.now().toString(36);
    const demo = await createTenant(db, {
      name: "Portability Demo",
      adminEmail: `staff-${run}@portability-demo.example.com`,
      adminPassword: E2E_PASSWORD,
    });
    const empty = await createTenant(db, {
      name: "Portability Production",
      adminEmail: `staff-${run}@portability-prod.example.com`,
      adminPassword: E2E_PASSWORD,
    });
    await seedDemoCatalogInto({
      tenantId: demo.tenantId,
      db: tenantDb(db, demo.tenantId),
      actor: { kind: "system", id: "e2e" },
    });
    return {
      demo: { email: demo.adminEmail, password: E2E_PASSWORD },
      empty: { email: empty.adminEmail, password: E2E_PASSWORD, tenantId: empty.tenantId },
    };
  } finally {
    await db.$disconnect();
  }
}

test("staff export the demo catalog to a file, dry-run it into another tenant, apply it and see the products there", async ({
  page,
  state,
}) => {
  const vendors = await demoAndEmptyVendors(state);
  await signIn(page, "admin", vendors.demo);
  const nav = page.getByRole("navigation", { name: "Back office" });

  // Export: every section, with dependencies; the preview counts what the file holds.
  await nav.getByRole("link", { name: "Export catalog" }).click();
  await expect(page.getByRole("heading", { name: "Export catalog", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "Preview export" }).click();
  await expect(page.getByTestId("problem")).toHaveAttribute("data-code", "catalog.empty_selection");
  for (const section of sections) await page.getByLabel(`Export of ${section}`).selectOption("All");
  await page.getByRole("button", { name: "Preview export" }).click();
  const summary = page.getByTestId("snapshot-summary");
  await expect(summary.getByTestId("count-products")).toContainText("2");
  await expect(summary.getByTestId("count-plans")).toContainText("1");
  await expect(summary.getByTestId("count-entitlementOffers")).toContainText("1");
  await screenshot(page, "portability-export-preview");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download file" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^catalog-.*\.json$/);
  const file = await download.path();
  const exported = JSON.parse(readFileSync(file, "utf8"));
  expect(exported.formatVersion).toMatch(/^1\./);

  // Import into the empty tenant: a dry run first, which changes nothing.
  await page.context().clearCookies();
  await signIn(page, "admin", vendors.empty);
  await nav.getByRole("link", { name: "Import catalog" }).click();
  await expect(page.getByRole("heading", { name: "Import catalog", level: 1 })).toBeVisible();
  await page.getByLabel("Catalog file").setInputFiles(file);
  await expect(page.getByTestId("snapshot-summary").getByTestId("count-products")).toContainText("2");
  await page.getByRole("button", { name: "Run dry run" }).click();
  const report = page.getByTestId("import-report");
  await expect(report.getByTestId("section-products")).toContainText("2");
  await expect(report.getByTestId("import-item").first()).toContainText("Created");
  await screenshot(page, "portability-dry-run-report");

  await open(page, "/admin/products");
  await expect(page.getByText("No products yet", { exact: false })).toBeVisible();

  // Apply everything, then the products are there.
  await open(page, "/admin/catalog-transfer/import");
  await page.getByLabel("Catalog file").setInputFiles(file);
  await page.getByRole("button", { name: "Run dry run" }).click();
  await expect(report.getByTestId("section-products")).toBeVisible();
  await page.getByRole("button", { name: /^Apply all items/ }).click();
  const applied = page.getByRole("region", { name: "Applied" });
  await expect(applied.getByTestId("section-products")).toContainText("2");
  await screenshot(page, "portability-applied");
  await applied.getByRole("link", { name: "Open products" }).click();
  for (const product of exported.sections.products as { name: string }[])
    await expect(page.getByRole("link", { name: product.name, exact: true })).toBeVisible();
  await screenshot(page, "portability-products-imported");
});

test("a dry-run report shows what differs and applies only the chosen items", async ({ page, state }) => {
  const vendors = await demoAndEmptyVendors(state);
  await signIn(page, "admin", vendors.demo);
  await open(page, "/admin/catalog-transfer/export");
  await page.getByLabel("Export of Products").selectOption("Ids");
  const picker = page.getByTestId("picker-products");
  await picker.getByRole("checkbox").first().check();
  await picker.getByRole("checkbox").nth(1).check();
  await expect(picker).toContainText("(2 chosen)");
  await page.getByRole("button", { name: "Preview export" }).click();
  await expect(page.getByTestId("count-products")).toContainText("2");
  await expect(page.getByTestId("count-featureCatalog")).not.toContainText(/^0/);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download file" }).click(),
  ]);
  const file = await download.path();

  await page.context().clearCookies();
  await signIn(page, "admin", vendors.empty);
  await open(page, "/admin/catalog-transfer/import");
  await page.getByLabel("Catalog file").setInputFiles(file);
  await page.getByRole("button", { name: "Run dry run" }).click();
  const report = page.getByTestId("import-report");
  await expect(report.getByTestId("section-products")).toBeVisible();
  // Apply one product only (and the catalog entries it needs).
  await report.getByLabel("Filter by section").selectOption("products");
  await report.getByRole("checkbox", { name: "Apply STUDIO@2.1" }).uncheck();
  await page.getByRole("button", { name: /^Apply \d+ of \d+ items/ }).click();
  const applied = page.getByRole("region", { name: "Applied" });
  await applied.getByLabel("Filter by section").selectOption("products");
  await expect(applied.getByTestId("import-item").filter({ hasText: "STUDIO@2.1" })).toContainText(
    "Not selected for apply.",
  );
  await expect(applied.getByTestId("import-item").filter({ hasText: "STUDIO-SYNC@1.0" })).toContainText(
    "Created",
  );

  // Importing the file again: the product that exists is compared field by field.
  await open(page, "/admin/catalog-transfer/import");
  await page.getByLabel("Catalog file").setInputFiles(file);
  await page.getByRole("button", { name: "Run dry run" }).click();
  await report.getByLabel("Filter by section").selectOption("products");
  const existing = report.getByTestId("import-item").filter({ hasText: "STUDIO-SYNC@1.0" });
  await expect(existing).toContainText("Unchanged");
  await existing.getByRole("button", { name: /differ$/ }).click();
  await expect(page.getByRole("table", { name: "Changes of STUDIO-SYNC@1.0" })).toBeVisible();
  await screenshot(page, "portability-compare");
});
