import { expect, expectSettled, open, screenshot, signIn, test } from "./support/fixtures.ts";
import { pricedProduct } from "./support/pricing.ts";

test("create an offer from the catalog, publish it, make an entitlement and edit its billing", async ({
  page,
  state,
}) => {
  const priced = await pricedProduct(state);
  await signIn(page, "admin", state.staff);

  await open(page, "/admin/customers");
  await page.getByLabel("Organization name").fill("E2E Corp");
  await page.getByRole("button", { name: "Add organization" }).click();
  const organizations = page.getByRole("table", { name: "Organizations" });
  await expect(organizations).toContainText("E2E Corp");
  // The list filters (case-insensitive), and the filter is in the URL.
  await page.getByLabel("Filter organizations").fill("e2e corp");
  await expect(page).toHaveURL(/[?&]orgs\.q=e2e(\+|%20)corp/);
  await expect(organizations.locator("tbody tr")).toHaveCount(1);
  await expect(organizations).toContainText("E2E Corp");
  await page.getByLabel("Country").fill("Germany");
  await page.getByLabel("Organization name").fill("E2E Bad Country");
  await page.getByRole("button", { name: "Add organization" }).click();
  await expect(page.getByTestId("problem")).toContainText("Country is not in the expected format.");
  await screenshot(page, "customers");

  await open(page, "/admin/offers");
  await page.getByRole("button", { name: "New offer" }).click();
  const offerName = `E2E offer ${priced.code}`;
  await page.getByLabel("Name", { exact: true }).fill(offerName);
  await page.getByRole("checkbox", { name: new RegExp(`Offer product ${priced.code}`) }).check();
  await page.getByLabel("Plan set").selectOption({ label: priced.planSetName });
  await page.getByLabel("Plan", { exact: true }).selectOption("Team");
  await page.getByLabel("Seats").fill("5");
  await page.getByRole("button", { name: "Create offer" }).click();
  // The new offer opens on its page, as a Draft. The list's Publish asks first, as the page's does
  // (back-office-jobs.spec.ts); cancelling leaves it a Draft.
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`${offerName} Draft`);
  await open(page, "/admin/offers");
  const row = page.getByRole("row").filter({ hasText: offerName });
  await row.getByRole("button", { name: "Publish" }).click();
  const confirm = page.getByRole("dialog", { name: `Publish ${offerName}?` });
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(row).toContainText("Draft");
  await row.getByRole("button", { name: "Publish" }).click();
  await confirm.getByRole("button", { name: "Publish offer" }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toContainText("Published");
  await screenshot(page, "offers");

  await open(page, "/admin/entitlements");
  await page.getByRole("button", { name: "New entitlement" }).click();
  const dialog = page.getByRole("dialog", { name: "New entitlement" });
  await dialog.getByLabel("Offer").selectOption({ label: `${offerName} (v1)` });
  await dialog.getByLabel("Customer").selectOption({ label: "E2E Corp (organization)" });
  await dialog.getByRole("button", { name: "Create entitlement" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(offerName);
  await expect(page.getByRole("table", { name: "Plan history" })).toContainText("Issued");
  const features = page.getByRole("table", { name: "Effective features" });
  await expect(features.getByRole("row").filter({ hasText: priced.seatsCode })).toContainText("10");

  await page.getByRole("tab", { name: "Billing" }).click();
  await page.getByLabel("Currency").fill("EUR");
  await page.getByLabel("Country").fill("DE");
  await page.getByRole("button", { name: "Save billing" }).click();
  await expect(page.getByLabel("Currency")).toHaveValue("EUR");
  await page.getByRole("button", { name: "Disable activations" }).click();
  await expect(page.getByText("New activations are refused.")).toBeVisible();
  await screenshot(page, "entitlement-detail");

  await page.getByRole("tab", { name: "Overview" }).click();
  await page.getByRole("button", { name: "Clear assigned customer" }).click();
  await page.getByRole("button", { name: "Assign", exact: true }).click();
  await expect(page.getByRole("region", { name: "Customer" })).toContainText("unassigned");
  await page.getByRole("combobox", { name: "Assigned customer" }).fill("E2E Corp");
  await page.getByRole("option", { name: /E2E Corp/ }).click();
  await page.getByRole("button", { name: "Assign", exact: true }).click();
  await expect(page.getByRole("region", { name: "Customer" })).toContainText("Organization");

  await open(page, "/admin/plan-change-requests");
  await expect(page.getByRole("heading", { name: "Plan changes" })).toBeVisible();

  await open(page, "/admin/entitlements");
  await page.getByRole("combobox", { name: "Customer" }).fill("E2E Corp");
  await page.getByRole("option", { name: /E2E Corp/ }).click();
  await expectSettled(page);
  await expect(page.getByRole("table", { name: "Entitlements" })).toContainText(offerName);
});
