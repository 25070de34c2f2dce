import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { APIRequestContext } from "@playwright/test";
import { createDb } from "../server/db/client.ts";
import { createTenant } from "../server/domain/cross-tenant.ts";
import { systemContext } from "../server/domain/context.ts";
import { issueActivationCodes } from "../server/domain/licensing/activation-codes/issue-activation-codes.ts";
import { createCustomerUser } from "../server/domain/customers/customer-users.ts";
import { ZCustomerUserCreateRequest } from "../server/domain/customers/customer.schemas.ts";
import { parseCsv } from "../tests/helpers/csv.ts";
import { expect, expectSettled, open, screenshot, signIn, test } from "./support/fixtures.ts";
import { seedEntitlement } from "./support/seed.ts";
import type { E2eState } from "./support/state.ts";

const PASSWORD = "e2e-operations-password";

/**
 * A vendor of its own (the dashboard counts a whole tenant; the shared e2e tenant moves with the
 * other specs): a customer with a 3-seat license, a second 2-seat license expiring in 10 days,
 * and two activations made over HTTP with device names.
 */
async function seedVendor(state: E2eState, request: APIRequestContext) {
  const base = createDb(state.databaseUrl, { max: 1 });
  const tag = randomUUID().slice(0, 6);
  try {
    const vendor = await createTenant(base, {
      name: `Ops Vendor ${tag}`,
      adminEmail: `staff-${tag}@ops-vendor.example.com`,
      adminPassword: PASSWORD,
    });
    const ctx = systemContext(base, vendor.tenantId, "e2e");
    const email = `dana-${tag}@customer.example.com`;
    const customer = await createCustomerUser(
      ctx,
      ZCustomerUserCreateRequest.parse({ email, firstName: "Dana", lastName: "Operator", roles: [] }),
    );
    const license = await seedEntitlement(ctx, {
      name: `Studio ${tag}`,
      customerId: customer.id,
      claimBasedActivation: {
        leaseTime: "PT1H",
        gracePeriod: "P1D",
        numberOfSeats: 3,
        isFloatingLicense: false,
      },
    });
    await seedEntitlement(ctx, {
      name: `Expiring ${tag}`,
      expirationDateTime: new Date(Date.now() + 10 * 86_400_000).toISOString(),
      claimBasedActivation: {
        leaseTime: "PT1H",
        gracePeriod: "P1D",
        numberOfSeats: 2,
        isFloatingLicense: false,
      },
    });
    const code = (await issueActivationCodes(ctx, license.id, { count: 1, deviceLimit: null })).codes[0].code;
    const deviceName = `Render box ${tag}`;
    for (const name of [deviceName, `Laptop ${tag}`]) {
      const res = await request.post("/api/v1/provision/activations/jwt", {
        data: { activationCode: code, fingerprint: `e2e-${randomUUID()}`, deviceName: name },
      });
      expect(res.status(), await res.text()).toBe(200);
    }
    return { vendor, email, customer, license, deviceName, tag };
  } finally {
    await base.$disconnect();
  }
}

test("the dashboard shows the vendor's figures; search opens customer 360, whose device reset shows in the sessions list; entitlements export as filtered CSV", async ({
  page,
  state,
}) => {
  const seeded = await seedVendor(state, page.request);
  await signIn(page, "admin", { email: seeded.vendor.adminEmail, password: PASSWORD });

  // Dashboard: figures from the seeded data, each linking to its list.
  const dashboard = page.getByTestId("dashboard");
  await expect(dashboard.getByTestId("dash-active-sessions-value")).toHaveText("2");
  await expect(dashboard.getByTestId("dash-active-sessions")).toContainText("of 5 seats on 2 licenses");
  await expect(dashboard.getByTestId("dash-seat-utilization-value")).toHaveText("40%");
  await expect(dashboard.getByTestId("dash-expiring-value")).toHaveText("1");
  await expect(dashboard.getByTestId("dash-activations-total")).toHaveText("2");
  await expect(
    dashboard.getByTestId("dash-activations-chart").locator(".recharts-bar-rectangle"),
  ).not.toHaveCount(0);
  await expect(dashboard.getByTestId("dash-dead-letters-value")).toHaveText("0");
  await screenshot(page, "operations-dashboard");
  await dashboard.getByTestId("dash-expiring").click();
  await expect(page).toHaveURL(/\/admin\/entitlements\?.*expiringSoon=true/);
  await expect(page.getByRole("link", { name: `Expiring ${seeded.tag}` })).toBeVisible();
  await expect(page.getByRole("link", { name: `Studio ${seeded.tag}` })).toHaveCount(0);

  // Global search: "/" opens it; a customer by email opens customer 360.
  await page.keyboard.press("/");
  const box = page.getByLabel("Search the back office");
  await expect(box).toBeFocused();
  await box.fill(seeded.email.toUpperCase());
  const customers = page.getByTestId("search-group-customer");
  await expect(customers.getByRole("option", { name: /Dana Operator/ })).toBeVisible();
  await screenshot(page, "operations-search");
  await box.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/admin/customers/users/${seeded.customer.id}$`));
  await expect(page.getByRole("heading", { name: "Dana Operator", level: 1 })).toBeVisible();

  // Enter pressed at once after typing opens a hit of what the box says, not one of the hits
  // still shown for the term typed before (the customer, here).
  await page.keyboard.press("/");
  await box.fill(seeded.email);
  await expect(customers.getByRole("option", { name: /Dana Operator/ })).toBeVisible();
  await box.fill(`Expiring ${seeded.tag}`);
  await box.press("Enter");
  await expect(page).toHaveURL(/\/admin\/entitlements\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`Expiring ${seeded.tag}`);

  // And a device by name, with Ctrl+K, opens its license's customer.
  await page.getByRole("link", { name: "Customers" }).first().click();
  await page.keyboard.press("Control+k");
  await page.getByLabel("Search the back office").fill(seeded.deviceName.toLowerCase());
  await page
    .getByTestId("search-group-device")
    .getByRole("option", { name: new RegExp(seeded.deviceName) })
    .click();
  await expect(page).toHaveURL(new RegExp(`/admin/customers/users/${seeded.customer.id}$`));
  const c360 = page.getByTestId("customer-360");
  await expect(c360.getByRole("table", { name: "Devices" }).getByText(seeded.deviceName)).toBeVisible();
  await expect(c360.getByRole("table", { name: "Sessions" }).getByText("Active")).toHaveCount(2);
  await expect(c360.getByRole("table", { name: "Entitlements" })).toContainText("2 of 3");
  await screenshot(page, "operations-customer-360");

  // Reset the license's devices from customer 360; the sessions list shows the reset.
  await c360.getByRole("button", { name: "Reset devices" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Reset devices" }).click();
  await expect(page.getByTestId("customer-notice")).toContainText("Devices reset: 2 devices");
  await expect(c360.getByRole("table", { name: "Sessions" }).getByText("Device reset")).toHaveCount(2);
  await c360.getByRole("table", { name: "Entitlements" }).getByRole("link", { name: "0 of 3" }).click();
  await expect(page).toHaveURL(/\/admin\/sessions\?entitlementId=/);
  await expect(page.getByRole("table").getByText("DeviceReset", { exact: true })).toHaveCount(2);
  await expect(page.getByRole("cell", { name: new RegExp(seeded.deviceName) })).toBeVisible();
  await screenshot(page, "operations-sessions-after-reset");

  // The entitlements list, filtered, exports those rows only.
  await open(page, "/admin/entitlements");
  // The unfiltered list first, so "no Expiring row" below means filtered, not "not loaded yet".
  await expect(page.getByRole("link", { name: `Expiring ${seeded.tag}` })).toBeVisible();
  await page.getByLabel("Filter by name or reference").fill(`Studio ${seeded.tag}`);
  // Clicked at once: the link waits while the typed filter is pending (its address lacks it).
  const downloading = page.waitForEvent("download");
  await page.getByTestId("export-entitlements").click();
  const download = await downloading;
  await expect(page.getByTestId("export-entitlements")).toHaveAttribute("href", /[?&]filter=/);
  await expectSettled(page);
  await expect(page.getByRole("link", { name: `Expiring ${seeded.tag}` })).toHaveCount(0);
  await expect(page.getByRole("link", { name: `Studio ${seeded.tag}` })).toBeVisible();
  expect(download.suggestedFilename()).toMatch(/^entitlements-\d{4}-\d{2}-\d{2}\.csv$/);
  const [header, ...rows] = parseCsv(await readFile((await download.path())!, "utf8"));
  expect(header).toEqual(expect.arrayContaining(["id", "name", "status", "customerId"]));
  expect(rows).toHaveLength(1);
  const row = rows[0];
  expect(row[header.indexOf("name")]).toBe(`Studio ${seeded.tag}`);
  expect(row[header.indexOf("customerId")]).toBe(seeded.customer.id);
  await screenshot(page, "operations-entitlements-export");

  // public/: the icon in the bar, the favicon and robots.txt.
  await expect(page.locator("header.top-bar img.brand-icon")).toBeVisible();
  expect((await page.request.get("/favicon.ico")).status()).toBe(200);
  const robots = await (await page.request.get("/robots.txt")).text();
  expect(robots).toContain("Disallow: /admin");
  expect(robots).toContain("Disallow: /portal");
});
