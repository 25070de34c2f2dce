import type { Page } from "@playwright/test";
import { expect, expectSettled, screenshot, signIn, test } from "./support/fixtures.ts";

test("staff author a product: two new catalog features, ordered values, a metered monitored asset", async ({
  page,
  state,
}) => {
  await signIn(page, "admin", state.staff);
  const nav = page.getByRole("navigation", { name: "Back office" });

  // Two new catalog entries: a Numeric one and an Enumeration with options.
  await nav.getByRole("link", { name: "Feature catalog", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Feature catalog", level: 1 })).toBeVisible();
  await createFeature(page, { code: "e2e_seats", name: "Seats", type: "Numeric", units: "seats" });
  await expect(catalogRow(page, "E2E_SEATS")).toBeVisible();

  // The type decides the editors: an Enumeration needs options (checked with the shared schema first).
  await page.getByRole("button", { name: "New feature" }).click();
  let dialog = page.getByRole("dialog");
  await dialog.getByLabel("Feature code").fill("e2e_edition");
  await dialog.getByLabel("Name", { exact: true }).fill("Edition");
  await dialog.getByLabel("Type").selectOption("Enumeration");
  await dialog.getByRole("button", { name: "Create feature" }).click();
  await expect(dialog.getByTestId("problem")).toContainText("Options does not fit with the other values.");
  for (const [value, description] of [
    ["basic", "Basic edition"],
    ["pro", "Professional edition"],
  ]) {
    await dialog.getByRole("button", { name: "Add option" }).click();
    const index = value === "basic" ? 1 : 2;
    await dialog.getByLabel(`Option ${index} value`).fill(value);
    await dialog.getByLabel(`Option ${index} description`).fill(description);
  }
  await screenshot(page, "catalog-feature-form");
  await dialog.getByRole("button", { name: "Create feature" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(catalogRow(page, "E2E_EDITION")).toContainText("basic, pro");

  // Lifecycle moves are confirmed first.
  await catalogRow(page, "E2E_EDITION")
    .getByLabel("Lifecycle of E2E_EDITION")
    .selectOption({ label: "Publish" });
  dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Draft → Published");
  await dialog.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(catalogRow(page, "E2E_EDITION")).toContainText("Published");
  await screenshot(page, "catalog-feature-catalog");

  // A product.
  await nav.getByRole("link", { name: "Products", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Products", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "New product" }).click();
  dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name", { exact: true }).fill("E2E Studio");
  await dialog.getByLabel("Product code").fill("E2E-STUDIO");
  await dialog.getByLabel("Version").fill("1.0-beta");
  await dialog.getByRole("button", { name: "Create product" }).click();
  // The form checks the API's own schema before sending: the summary says so in plain words.
  await expect(dialog.getByTestId("problem")).toContainText("Some values need correcting.");
  await expect(dialog.getByTestId("problem").getByRole("link")).toHaveCount(1);
  await dialog.getByLabel("Version").fill("1.0");
  await dialog.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByRole("heading", { name: "E2E Studio", level: 1 })).toBeVisible();
  await expect(page.getByText("No features yet")).toBeVisible();

  // Two features from the catalog, with type-aware value editors.
  await addFeature(page, "E2E_SEATS", async (d) => d.getByLabel("Value", { exact: true }).fill("5"));
  await addFeature(page, "E2E_EDITION", async (d) =>
    d.getByLabel("Value", { exact: true }).selectOption("pro"),
  );
  const features = page.getByTestId("product-feature-row");
  await expect(features).toHaveCount(2);
  await expect(features.nth(0)).toContainText("E2E_SEATS");
  await expect(features.nth(1)).toContainText("E2E_EDITION");

  // Reorder: the edition moves up, and the order is kept by sortOrder.
  await page.getByRole("button", { name: "Move E2E_EDITION up" }).click();
  await expect(features.nth(0)).toContainText("E2E_EDITION");
  await expect(features.nth(0).locator("td").first()).toHaveText("1");
  await expect(features.nth(1)).toContainText("E2E_SEATS");

  // A value the type refuses never reaches the server; a good one is saved.
  await features.nth(1).getByRole("button", { name: "Edit" }).click();
  dialog = page.getByRole("dialog");
  await dialog.getByLabel("Value", { exact: true }).fill("five");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByTestId("problem")).toHaveAttribute("data-code", "license.validation_error");
  await dialog.getByLabel("Value", { exact: true }).fill("10");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(features.nth(1).getByTestId("feature-value")).toHaveText("10");

  // A property, Public so it travels with license metadata.
  await page.getByRole("button", { name: "Add property" }).click();
  dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name", { exact: true }).fill("Support tier");
  await dialog.getByLabel("Value", { exact: true }).fill("gold");
  await dialog.getByLabel("Visibility").selectOption("Public");
  await dialog.getByRole("button", { name: "Save property" }).click();
  await expect(page.getByRole("table", { name: "Properties" })).toContainText("Support tier");

  // A metered monitored asset with a two-tier ladder.
  await page.getByRole("link", { name: "Add monitored asset" }).click();
  await expect(page.getByRole("heading", { name: "New monitored asset", level: 1 })).toBeVisible();
  await page.getByLabel("Metric name").fill("api_calls");
  await page.getByLabel("Name", { exact: true }).fill("API calls");
  await page.getByLabel("Unit", { exact: true }).fill("calls");
  await page.getByRole("radio", { name: "Metered usage (tiers)" }).check();
  await page.getByLabel("Consumption period").selectOption("month");
  await page.getByRole("button", { name: "Add tier" }).click();
  await page.getByLabel("Tier 1 name", { exact: true }).fill("Included");
  await page.getByLabel("Tier 1 end", { exact: true }).fill("1000");
  await page.getByRole("button", { name: "Add tier" }).click();
  await expect(page.getByLabel("Tier 2 start", { exact: true })).toHaveValue("1000");
  await page.getByLabel("Tier 2 name", { exact: true }).fill("Overage");
  await page.getByLabel("Tier 2 credits per unit").fill("0.5");
  await page.getByLabel("Tier 2 level").selectOption("Medium");
  await page.getByLabel("Tier 2 policy").selectOption("AllowWithOverage");
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, "catalog-asset-editor");
  await page.getByRole("button", { name: "Create monitored asset" }).click();

  await expect(page.getByRole("heading", { name: "E2E Studio", level: 1 })).toBeVisible();
  await expect(page.getByTestId("product-asset-row")).toContainText("api_calls");
  await expect(page.getByTestId("product-asset-row")).toContainText("2 tier(s) · per month");
  await expect(page.getByRole("table", { name: "Metrics" })).toContainText("api_calls");
  await screenshot(page, "catalog-product");

  // The asset's own page edits the ladder.
  await page.getByTestId("product-asset-row").getByRole("link", { name: "api_calls" }).click();
  await expect(page.getByRole("heading", { name: "api_calls", level: 1 })).toBeVisible();
  await expect(page.getByTestId("tier-row")).toHaveCount(2);
  await page.getByLabel("Tier 2 start", { exact: true }).fill("900");
  await page.getByRole("button", { name: "Save monitored asset" }).click();
  await expect(page.getByTestId("problem")).toHaveAttribute("data-code", "license.validation_error");
  await page.getByLabel("Tier 2 start", { exact: true }).fill("1000");
  await page.getByRole("button", { name: "Save monitored asset" }).click();
  await expect(page.getByRole("status")).toHaveText("Saved.");
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, "catalog-asset");

  // Delete shows what refers to the product first.
  await page.getByRole("link", { name: "product", exact: true }).click();
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("referenced-by")).toHaveText("Nothing refers to it.");
  await screenshot(page, "catalog-product-delete");
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // The list finds it by code.
  await nav.getByRole("link", { name: "Products", exact: true }).click();
  await page.getByLabel("Filter by name or code").fill("e2e-stu");
  await expectSettled(page);
  await expect(page.locator("table.table tbody tr")).toHaveCount(1);
  await expect(page.locator("table.table tbody tr")).toContainText("E2E-STUDIO");
  await screenshot(page, "catalog-products");
});

function catalogRow(page: Page, code: string) {
  return page
    .locator("table.table tbody tr")
    .filter({ has: page.locator("code", { hasText: new RegExp(`^${code}$`) }) });
}

async function createFeature(page: Page, f: { code: string; name: string; type: string; units?: string }) {
  await page.getByRole("button", { name: "New feature" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Feature code").fill(f.code);
  await dialog.getByLabel("Name", { exact: true }).fill(f.name);
  await dialog.getByLabel("Type").selectOption(f.type);
  if (f.units) await dialog.getByLabel("Units").fill(f.units);
  await dialog.getByRole("button", { name: "Create feature" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
}

async function addFeature(
  page: Page,
  code: string,
  setValue: (dialog: ReturnType<Page["getByRole"]>) => Promise<unknown>,
) {
  await page.getByRole("button", { name: "Add feature" }).click();
  const dialog = page.getByRole("dialog");
  const option = dialog
    .getByLabel("Catalog entry")
    .locator("option")
    .filter({ hasText: new RegExp(`^${code} — `) });
  await expect(option).toHaveCount(1);
  await dialog.getByLabel("Catalog entry").selectOption((await option.getAttribute("value"))!);
  await setValue(dialog);
  await dialog.getByRole("button", { name: "Add feature" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
}
