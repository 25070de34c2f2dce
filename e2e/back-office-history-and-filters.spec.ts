import { randomUUID } from "node:crypto";
import { createCustomerOrganization } from "../server/domain/customers/customer-organizations.ts";
import { ZCustomerOrganizationCreateRequest } from "../server/domain/customers/customer.schemas.ts";
import { replaceBilling } from "../server/domain/entitlements/billing/billing.ts";
import { ZBillingFields } from "../server/domain/entitlements/billing/billing.schemas.ts";
import { expect, expectSettled, open, screenshot, signIn, test } from "./support/fixtures.ts";
import { fleetLicense } from "./support/fleet.ts";
import { seedEntitlement, withTenantContext } from "./support/seed.ts";

test.use({ viewport: { width: 1360, height: 860 } });

test("an entitlement's History tab shows a seat taken on a device, in plain words, beside its changes", async ({
  page,
  state,
}) => {
  const tag = randomUUID().slice(0, 6);
  const device = `Review laptop ${tag}`;
  const license = await fleetLicense(state, { devices: [device] });
  await signIn(page, "admin", state.staff);
  await open(page, `/admin/entitlements/${license.id}`);
  await page.getByRole("tab", { name: "History" }).click();
  const history = page.getByRole("table", { name: "History" });
  const seat = history.getByRole("row", { name: new RegExp(`Seat activated on ${device}`) });
  await expect(seat).toContainText("Event");
  await expect(history.getByRole("row", { name: new RegExp(`License activated on ${device}`) })).toHaveCount(
    1,
  );
  await expect(history).not.toContainText("Entitlement.SeatActivated");
  await expect(page).toHaveURL(/tab=history/);
  await screenshot(page, "entitlement-history-events");
});

test("the entitlements list filtered by a customer picked by name; the filter stays in the URL", async ({
  page,
  state,
}) => {
  const tag = randomUUID().slice(0, 6);
  const customer = `Nimbus Works ${tag}`;
  const theirs = await fleetLicense(state, { organization: customer });
  const other = await fleetLicense(state, {});
  await signIn(page, "admin", state.staff);
  await open(page, "/admin/entitlements");
  await expectSettled(page);
  const table = page.getByRole("table", { name: "Entitlements" });

  await page.getByRole("combobox", { name: "Customer" }).fill(`Nimbus Works ${tag}`);
  await page.getByRole("option", { name: new RegExp(customer) }).click();
  await expectSettled(page);
  await expect(table.locator("tbody tr")).toHaveCount(1);
  const row = table.getByRole("row", { name: new RegExp(theirs.name) });
  await expect(row).toContainText(customer);
  await expect(table).not.toContainText(other.name);
  await expect(page).toHaveURL(/customerId=/);
  await screenshot(page, "entitlements-by-customer");

  await page.reload();
  await expectSettled(page);
  await expect(page.getByTestId("picker-choice").filter({ hasText: customer })).toBeVisible();
  await expect(table.locator("tbody tr")).toHaveCount(1);
  await page.getByRole("button", { name: "Clear customer" }).click();
  await expectSettled(page);
  await expect(page).not.toHaveURL(/customerId=/);
});

test("customer 360 says when a table is empty and reads billing in plain words", async ({ page, state }) => {
  const tag = randomUUID().slice(0, 6);
  const organization = await withTenantContext(state, async (ctx) => {
    const org = await createCustomerOrganization(
      ctx,
      ZCustomerOrganizationCreateRequest.parse({ name: `Quiet Studio ${tag}` }),
    );
    const unbilled = await seedEntitlement(ctx, {
      name: `Quiet unbilled ${tag}`,
      customerId: org.id,
      claimBasedActivation: { numberOfSeats: 1 },
    });
    await replaceBilling(ctx, unbilled.id, ZBillingFields.parse({ mode: "NotBillable" }));
    const billed = await seedEntitlement(ctx, {
      name: `Quiet billed ${tag}`,
      customerId: org.id,
      claimBasedActivation: { numberOfSeats: 1 },
    });
    await replaceBilling(
      ctx,
      billed.id,
      ZBillingFields.parse({
        mode: "OperatorManaged",
        method: "Subscription",
        interval: "Month",
        amount: 49,
        currency: "EUR",
      }),
    );
    return org;
  });
  await signIn(page, "admin", state.staff);
  await open(page, `/admin/customers/organizations/${organization.id}`);
  const c360 = page.getByTestId("customer-360");
  const entitlements = c360.getByRole("table", { name: "Entitlements" });
  await expect(entitlements.getByRole("row", { name: new RegExp(`Quiet unbilled ${tag}`) })).toContainText(
    "Not billable",
  );
  await expect(entitlements.getByRole("row", { name: new RegExp(`Quiet billed ${tag}`) })).toContainText(
    "No payment yet · Billed by your team · EUR 49 /month",
  );
  await expect(entitlements).not.toContainText("NotBillable");
  await expect(entitlements).not.toContainText("OperatorManaged");
  // Counts name their noun in the right number; no stray separator where the customer has no email.
  const billedRow = entitlements.getByRole("row", { name: new RegExp(`Quiet billed ${tag}`) });
  await expect(billedRow).toContainText("0 of 1 seat");
  await expect(entitlements).not.toContainText("1 seats");
  await expect(c360.getByText(/^origin \S+ · since \d/)).toBeVisible();
  for (const sentence of ["No activation codes yet.", "No devices yet.", "No sessions yet."])
    await expect(c360.getByText(sentence, { exact: true })).toBeVisible();
  await expect(c360.getByRole("table", { name: "Devices" })).toHaveCount(0);
  await screenshot(page, "customer-360-empty-and-billing");

  // In a narrow window the status column is narrow; its badge stays one word on one line.
  await page.setViewportSize({ width: 760, height: 900 });
  const status = billedRow.getByText(/^(Draft|Published)$/);
  await expect(status).toHaveCSS("white-space", "nowrap");
  // One line of text is about 1.5 times the font size high (with its padding); two would be 3.
  const fontSize = await status.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  expect((await status.boundingBox())!.height).toBeLessThan(fontSize * 2.2);
  await screenshot(page, "customer-360-narrow-status");
});

test("the devices toolbar labels every filter above its control", async ({ page, state }) => {
  await signIn(page, "admin", state.staff);
  await open(page, "/admin/devices");
  await expectSettled(page);
  const toolbar = page.getByRole("search", { name: "Device filters" });
  for (const label of [
    "Search devices by name",
    "Fingerprint hash starts with",
    "Entitlement",
    "Customer",
    "Product",
    "State",
    "Last seen",
  ])
    await expect(toolbar.getByText(label, { exact: true })).toBeVisible();
  // One baseline: the labels' tops and the controls' bottoms line up across the first row.
  const boxes = await toolbar.locator("input, select").evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      return { top: Math.round(r.top), bottom: Math.round(r.bottom) };
    }),
  );
  const firstRow = boxes.filter((b) => b.top < boxes[0].bottom);
  expect(new Set(firstRow.map((b) => b.bottom)).size).toBe(1);
  await screenshot(page, "devices-toolbar");
});
