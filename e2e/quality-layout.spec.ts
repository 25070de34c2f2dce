import type { Page } from "@playwright/test";
import { createMonitoredAsset } from "../server/domain/catalog/monitored-assets/create-monitored-asset.ts";
import { ZMonitoredAssetCreateRequest } from "../server/domain/catalog/monitored-assets/monitored-asset.schemas.ts";
import { createAddOn } from "../server/domain/pricing/add-ons/create-add-on.ts";
import { ZAddOnCreateRequest } from "../server/domain/pricing/add-ons/add-on.schemas.ts";
import { expect, hydrated, open, screenshot, signIn, test } from "./support/fixtures.ts";
import { withTenantContext } from "./support/seed.ts";
import { plannedLicense } from "./support/planned-license.ts";
import type { E2eState } from "./support/state.ts";

/**
 * Layout checks and the screenshots kept for comparing pages before and after their styles moved
 * out of app/globals.css into their areas' sheets (docs/decisions.md "Stylesheets per area").
 * Names are fixed (no random suffix), so two runs on fresh databases draw the same pages.
 */

/** The consumer's license with a credit balance of 40 (e2e/support/planned-license.ts), a metered asset on its product and an add-on of its suite. */
async function seedLayout(state: E2eState, tag: string) {
  return withTenantContext(state, async (ctx) => {
    const ids = await plannedLicense(ctx, state, {
      name: `Layout license ${tag}`,
      prefix: "Layout",
      suffix: tag,
      credits: { metricName: "layout-credits", name: "Layout credits" },
    });
    const metered = await createMonitoredAsset(
      ctx,
      ids.productId,
      ZMonitoredAssetCreateRequest.parse({
        metricName: "layout-calls",
        name: "Layout calls",
        unit: "calls",
        meteredUsage: {
          consumptionPeriod: "month",
          usageTiers: [
            { name: "Included", startUsage: 0, endUsage: 1000 },
            {
              name: "Overage",
              startUsage: 1000,
              creditsPerUnitOfConsumption: 0.5,
              quotaUsageLevel: "Medium",
            },
          ],
        },
      }),
    );
    const addOn = await createAddOn(
      ctx,
      ZAddOnCreateRequest.parse({
        suiteId: ids.suiteId,
        code: `LAYOUT-EXTRA-${tag}`,
        name: `Layout extra ${tag}`,
      }),
    );
    return { ...ids, assetId: metered.id, addOnId: addOn.id };
  });
}

/** The usage panel's meter of the layout license's credit balance, the license picked when there are several. */
async function creditsMeter(page: Page, license: string) {
  const usage = page.getByRole("region", { name: "Your usage" });
  await expect(usage.getByTestId("my-usage")).toBeVisible();
  const picker = usage.getByRole("combobox", { name: "License", exact: true });
  if (await picker.count()) await picker.selectOption({ label: license });
  return usage.getByTestId("my-meter").filter({ hasText: "Layout credits" });
}

test("portal: one grant draws a labelled flat balance line, and the balance history stacks in the narrow panel with nothing cut off", async ({
  page,
  state,
}) => {
  const license = "Layout license PORTAL";
  await seedLayout(state, "PORTAL");
  await signIn(page, "portal", state.consumer);
  let meter = await creditsMeter(page, license);
  await expect(meter.getByText("No balance history yet.")).toBeVisible();

  await meter.getByRole("spinbutton", { name: "Add credits to Layout credits" }).fill("60");
  await meter.getByRole("button", { name: "Add credits" }).click();
  await page
    .getByRole("dialog", { name: "Add 60 credits to Layout credits?" })
    .getByRole("button", { name: "Add 60 credits" })
    .click();
  await expect(meter.getByTestId("my-remaining-credits")).toHaveText("100 of 100 credits remaining");

  // One entry: a flat line with its point and value, not a lone dot.
  const chart = meter.getByTestId("balance-chart");
  await expect(chart.getByTestId("balance-chart-value")).toContainText("100 credits since");
  await expect(chart.locator("circle")).toHaveCount(1);
  await expect(chart.locator("path")).toHaveAttribute("d", "M5.0,5.0 L475.0,5.0");

  for (const width of [1360, 390]) {
    await page.setViewportSize({ width, height: 900 });
    if (width === 390) {
      await page.reload();
      await hydrated(page);
      meter = await creditsMeter(page, license);
    }
    const history = meter.getByRole("table", { name: "Balance history" });
    const entry = history.getByRole("row").nth(1);
    await expect(entry).toContainText("Added");
    await expect(entry).toContainText("60");
    await expect(entry).toContainText(`By ${state.consumer.name}`);
    // Stacked: the "By" line sits under the operation, inside the panel, and nothing scrolls sideways.
    const panel = (await page.getByRole("region", { name: "Your usage" }).boundingBox())!;
    const what = (await entry.locator(".balance-history-what").boundingBox())!;
    const by = (await entry.locator(".balance-history-by").boundingBox())!;
    expect(by.y).toBeGreaterThan(what.y);
    expect(by.x + by.width).toBeLessThanOrEqual(panel.x + panel.width);
    const wrap = meter.locator(".balance-history");
    expect(await wrap.evaluate((el) => el.scrollWidth - el.clientWidth)).toBe(0);
    await meter.scrollIntoViewIfNeeded();
    await screenshot(page, `layout-portal-usage-${width}`);
  }
});

/** Pages to compare, by the path after the seeding; each waits for its heading. */
function layoutPages(ids: Awaited<ReturnType<typeof seedLayout>>): [string, string][] {
  return [
    ["dashboard", "/admin"],
    ["products", "/admin/products"],
    ["product", `/admin/products/${ids.productId}`],
    ["asset-new", `/admin/products/${ids.productId}/monitored-assets/new`],
    ["asset", `/admin/monitored-assets/${ids.assetId}`],
    ["feature-catalog", "/admin/feature-catalog"],
    ["suites", "/admin/suites"],
    ["suite", `/admin/suites/${ids.suiteId}`],
    ["plan-sets", "/admin/plan-sets"],
    ["plan-set", `/admin/plan-sets/${ids.planSetId}`],
    ["add-ons", "/admin/add-ons"],
    ["add-on", `/admin/add-ons/${ids.addOnId}`],
    ["offers", "/admin/offers"],
    ["entitlements", "/admin/entitlements"],
    ["entitlement", `/admin/entitlements/${ids.entitlementId}`],
    ["customers", "/admin/customers"],
    ["customer-360", `/admin/customers/users/${ids.customerId}`],
    ["activation-codes", "/admin/activation-codes"],
    ["sessions", "/admin/sessions"],
    ["meters", "/admin/meters"],
    ["usage", "/admin/usage"],
    ["reports-revenue", "/admin/reports/revenue"],
    ["reports-activations", "/admin/reports/activations"],
    ["webhooks", "/admin/webhooks"],
    ["tags", "/admin/tags"],
    ["settings", "/admin/settings"],
    ["api-docs", "/admin/api-docs"],
    ["catalog-export", "/admin/catalog-transfer/export"],
    ["audit", "/admin/audit"],
    ["not-found", "/admin/no-such-page"],
  ];
}

test("back-office pages draw with their area's styles (screenshots kept for comparison)", async ({
  page,
  state,
}) => {
  test.setTimeout(240_000);
  const ids = await seedLayout(state, "ADMIN");
  for (const [name, path] of [
    ["landing", "/"],
    ["portal-sign-in", "/portal/sign-in"],
    ["admin-sign-in", "/admin/sign-in"],
  ]) {
    await open(page, path);
    await screenshot(page, `layout-${name}`);
  }
  await signIn(page, "admin", state.staff);
  for (const [name, path] of layoutPages(ids)) {
    await open(page, path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    // Every list, chart and name loaded, so two runs draw the same page.
    await page.waitForLoadState("networkidle");
    await expect(page.getByText(/^Loading/)).toHaveCount(0);
    await screenshot(page, `layout-${name}`);
  }
});
