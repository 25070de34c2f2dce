import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createProduct } from "../server/domain/catalog/products/create-product.ts";
import { ZProductCreateRequest } from "../server/domain/catalog/products/product.schemas.ts";
import { expect, expectSettled, open, screenshot, signIn, test } from "./support/fixtures.ts";
import { fleetLicense } from "./support/fleet.ts";
import { seedEntitlement, withTenantContext } from "./support/seed.ts";

test.use({ viewport: { width: 1440, height: 900 } });

test("bulk-extend selected entitlements: the new end dates show, a Draft is refused in plain words, the selection exports", async ({
  page,
  state,
}) => {
  const tag = randomUUID().slice(0, 6);
  await withTenantContext(state, async (ctx) => {
    await seedEntitlement(ctx, {
      name: `Bulk ${tag} Alpha`,
      claimBasedActivation: { numberOfSeats: 2 },
      expirationDateTime: "2027-03-01T12:00:00.000Z",
    });
    await seedEntitlement(ctx, {
      name: `Bulk ${tag} Beta`,
      claimBasedActivation: { numberOfSeats: 2 },
      expirationDateTime: "2027-05-01T09:00:00.000Z",
    });
    await seedEntitlement(ctx, {
      name: `Bulk ${tag} Draft`,
      status: "Draft",
      claimBasedActivation: { numberOfSeats: 2 },
      expirationDateTime: "2027-04-01T00:00:00.000Z",
    });
  });
  await signIn(page, "admin", state.staff);
  await open(page, "/admin/entitlements");
  await page.getByLabel("Filter by name or reference").fill(`Bulk ${tag}`);
  await expectSettled(page);
  const table = page.getByRole("table", { name: "Entitlements" });
  await expect(table.locator("tbody tr")).toHaveCount(3);
  await page.getByLabel("Select all on this page").check();
  const selection = page.getByRole("region", { name: "Selection" });
  await expect(selection).toContainText("3 selected");

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    selection.getByRole("link", { name: "Export selection (CSV)" }).click(),
  ]);
  const csv = readFileSync((await download.path())!, "utf8");
  expect(csv.trim().split("\n")).toHaveLength(4);
  for (const name of ["Alpha", "Beta", "Draft"]) expect(csv).toContain(`Bulk ${tag} ${name}`);

  await selection.getByRole("button", { name: "Extend selected" }).click();
  const dialog = page.getByRole("dialog", { name: "Extend 3 entitlements?" });
  await dialog.getByLabel("Set one end date for all").check();
  await dialog.getByLabel("New end date").fill("2028-06-15");
  const preview = dialog.getByRole("table", { name: "Entitlements to extend" });
  await expect(preview.getByRole("row", { name: new RegExp(`Bulk ${tag} Alpha`) })).toContainText(
    "1 Mar 2027",
  );
  await expect(preview.getByRole("row", { name: new RegExp(`Bulk ${tag} Alpha`) })).toContainText(
    "15 Jun 2028",
  );
  await screenshot(page, "bulk-extend-dialog");
  await dialog.getByRole("button", { name: "Extend 3 entitlements" }).click();

  const done = page.getByRole("dialog", { name: "Extended 2 of 3 entitlements" });
  const results = done.getByRole("table", { name: "Extension results" });
  await expect(results.getByRole("row", { name: new RegExp(`Bulk ${tag} Alpha`) })).toContainText("Extended");
  await expect(results.getByRole("row", { name: new RegExp(`Bulk ${tag} Beta`) })).toContainText(
    "15 Jun 2028",
  );
  await expect(results.getByRole("row", { name: new RegExp(`Bulk ${tag} Draft`) })).toContainText(
    "Refused This entitlement cannot be renewed. A Draft entitlement is not in force; publish it first.",
  );
  await screenshot(page, "bulk-extend-results");
  await done.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expectSettled(page);
  // The extended rows leave the selection; the refused one stays chosen for another try.
  await expect(selection).toContainText("1 selected");
  await expect(table.getByRole("row", { name: new RegExp(`Bulk ${tag} Alpha`) })).toContainText(
    "15 Jun 2028",
  );
  await expect(table.getByRole("row", { name: new RegExp(`Bulk ${tag} Beta`) })).toContainText("15 Jun 2028");
  await expect(table.getByRole("row", { name: new RegExp(`Bulk ${tag} Draft`) })).toContainText("1 Apr 2027");
  await screenshot(page, "bulk-extend-list");
});

test("filter the fleet's devices by a customer picked by name; the filter stays in the URL", async ({
  page,
  state,
}) => {
  const tag = randomUUID().slice(0, 6);
  const customer = `Orbit Labs ${tag}`;
  await fleetLicense(state, { organization: customer, devices: ["Orbit laptop", "Orbit desktop"] });
  await fleetLicense(state, { devices: ["Orbit kiosk"] });
  await signIn(page, "admin", state.staff);
  await open(page, "/admin/devices");
  await page.getByLabel("Search devices by name").fill("Orbit");
  await expectSettled(page);
  const table = page.getByRole("table", { name: "Devices" });
  await expect(table.getByText("Orbit kiosk").first()).toBeVisible();

  await page.getByRole("combobox", { name: "Customer" }).fill(`Orbit Labs ${tag}`);
  await page.getByRole("option", { name: new RegExp(customer) }).click();
  await expectSettled(page);
  await expect(table.locator("tbody tr")).toHaveCount(2);
  await expect(table).toContainText("Orbit laptop");
  await expect(table).toContainText("Orbit desktop");
  await expect(table).not.toContainText("Orbit kiosk");
  await expect(page).toHaveURL(/customerId=/);
  await screenshot(page, "devices-by-customer");

  await page.reload();
  await expectSettled(page);
  await expect(page.getByTestId("picker-choice").filter({ hasText: customer })).toBeVisible();
  await expect(table.locator("tbody tr")).toHaveCount(2);
});

test("a product's History tab shows a change made in the back office", async ({ page, state }) => {
  const tag = randomUUID().slice(0, 6);
  const product = await withTenantContext(state, (ctx) =>
    createProduct(
      ctx,
      ZProductCreateRequest.parse({ name: `History product ${tag}`, productCode: `HIST-${tag}` }),
    ),
  );
  await signIn(page, "admin", state.staff);
  await open(page, `/admin/products/${product.id}`);
  await page.getByRole("button", { name: "Edit" }).click();
  const dialog = page.getByRole("dialog", { name: `Edit product “History product ${tag}”` });
  await dialog.getByLabel("Description").fill("Ships with the spring release.");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByText("Ships with the spring release.")).toBeVisible();

  await page.getByRole("tab", { name: "History" }).click();
  const history = page.getByRole("table", { name: "History" });
  const row = history.getByRole("row", { name: /Changed .*description/ });
  await expect(row).toContainText(state.staff.email);
  await expect(row).toContainText("Back office");
  await expect(row).toContainText("Ships with the spring release.");
  await expect(page).toHaveURL(/tab=history/);
  await screenshot(page, "product-history");
});
