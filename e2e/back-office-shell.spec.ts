import { expect, open, screenshot, signIn, test } from "./support/fixtures.ts";

test("the landing page links to both sides", async ({ page }) => {
  await open(page, "/");
  await expect(page.getByRole("link", { name: /Back office/ })).toHaveAttribute("href", "/admin");
  await expect(page.getByRole("link", { name: /Customer portal/ })).toHaveAttribute("href", "/portal");
  await screenshot(page, "landing");
});

test("every area is in the navigation; the current one is marked; an unknown area is 404", async ({
  page,
  state,
}) => {
  await signIn(page, "admin", state.staff);
  const nav = page.getByRole("navigation", { name: "Back office" });
  for (const label of [
    "Products",
    "Feature catalog",
    "Monitored assets",
    "Suites",
    "Plan sets",
    "Add-ons",
    "Rating campaigns",
    "Tags",
    "Offers",
    "Entitlements",
    "Customers",
    "Plan changes",
    "Activation codes",
    "Devices",
    "Offline activation",
    "Sessions",
    "Usage",
    "Meters",
    "Webhooks",
    "Revenue",
    "Seat utilisation",
    "Activations",
    "API clients",
    "API docs",
  ]) {
    await expect(nav.getByRole("link", { name: label, exact: true })).toBeVisible();
  }
  await expect(nav.getByText("Reports", { exact: true })).toBeVisible();
  await nav.getByRole("link", { name: "Revenue", exact: true }).click();
  await expect(nav.getByRole("link", { name: "Revenue", exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await screenshot(page, "navigation");

  const missing = await page.goto("/admin/no-such-area");
  expect(missing?.status()).toBe(404);
});

test("the API docs render the OpenAPI document", async ({ page, state }) => {
  await signIn(page, "admin", state.staff);
  await open(page, "/admin/api-docs");
  await expect(page.getByRole("heading", { name: "Tags", level: 2 })).toBeVisible();
  const createTag = page.locator(
    'details.api-op[data-method="post"][data-path="/api/v1/provision/admin/tags"]',
  );
  await createTag.locator(":scope > summary").click();
  await expect(createTag).toContainText("provision.tag.create");
  await expect(createTag).toContainText("tag.name_taken");
  await createTag.locator("details.schema-block").first().locator(":scope > summary").click();
  await expect(createTag.locator("pre.json").first()).toContainText('"scope"');
  await screenshot(page, "api-docs");

  await page.getByLabel("Filter operations").fill("/merge");
  await expect(page.locator("details.api-op")).toHaveCount(1);
});
