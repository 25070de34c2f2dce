import { randomUUID } from "node:crypto";
import { createProduct } from "../server/domain/catalog/products/create-product.ts";
import { ZProductCreateRequest } from "../server/domain/catalog/products/product.schemas.ts";
import { createMonitoredAsset } from "../server/domain/catalog/monitored-assets/create-monitored-asset.ts";
import { ZMonitoredAssetCreateRequest } from "../server/domain/catalog/monitored-assets/monitored-asset.schemas.ts";
import { issueActivationCodes } from "../server/domain/licensing/activation-codes/issue-activation-codes.ts";
import { expect, expectSettled, open, screenshot, signIn, test } from "./support/fixtures.ts";
import { seedConsumerCustomer, seedEntitlement, withTenantContext } from "./support/seed.ts";
import type { E2eState } from "./support/state.ts";

/**
 * An entitlement of a product with a credit balance (copied onto it when the entitlement is made),
 * made by the domain functions; its device activates in the test, with a code issued on screen.
 */
async function seedLicence(state: E2eState) {
  return withTenantContext(state, async (ctx) => {
    const product = await createProduct(
      ctx,
      ZProductCreateRequest.parse({ name: "E2E product", productCode: `E2E-${randomUUID().slice(0, 8)}` }),
    );
    await createMonitoredAsset(
      ctx,
      product.id,
      ZMonitoredAssetCreateRequest.parse({
        metricName: "credits",
        name: "Credits",
        balanceUsage: { name: "Credits" },
      }),
    );
    const entitlement = await seedEntitlement(ctx, {
      name: `E2E licence ${randomUUID().slice(0, 6)}`,
      productIds: [product.id],
    });
    return { id: entitlement.id, name: entitlement.name };
  });
}

test("issue an activation code, copy it, revoke another; reset and block devices; deposit credits", async ({
  page,
  state,
}) => {
  const { id: entitlementId, name } = await seedLicence(state);
  await signIn(page, "admin", state.staff);

  await open(page, "/admin/activation-codes");
  await page.getByRole("combobox", { name: "Entitlement", exact: true }).fill(name);
  await page.getByRole("option", { name: new RegExp(name) }).click();
  await page.getByLabel("Count").fill("2");
  await page.getByLabel("Device limit per code").fill("3");
  await page.getByRole("button", { name: "Issue codes" }).click();
  const issued = page.getByTestId("issued-codes");
  await expect(issued).toContainText("Issued 2 codes");
  await expect(issued.locator("code").first()).toHaveText(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
  // A shipped application activates a device with the first code (the runtime surface, plain HTTP).
  const activation = await page.request.post("/api/v1/provision/activations/jwt", {
    data: {
      activationCode: await issued.locator("code").first().textContent(),
      fingerprint: "e2e-laptop",
      deviceName: "E2E laptop",
    },
  });
  expect(activation.status(), await activation.text()).toBe(200);
  await page.getByRole("combobox", { name: "Filter by entitlement" }).fill(name);
  await page.getByRole("option", { name: new RegExp(name) }).click();
  // "Revoke" below takes the first row: it must be this entitlement's, not the unfiltered list's.
  await expectSettled(page);
  await expect(page.getByTestId("activation-code")).toHaveCount(2);
  await expect(page.getByRole("cell", { name: "0 / 3" }).first()).toBeVisible();
  await screenshot(page, "activation-codes");
  await page.getByRole("button", { name: "Revoke" }).first().click();
  await page.getByRole("button", { name: "Revoke code" }).click();
  await expect(page.getByRole("table").getByText("Revoked", { exact: true })).toBeVisible();

  await open(page, `/admin/entitlements/${entitlementId}?tab=seats`);
  await expect(page.getByTestId("transfer-count")).toContainText("Transfer count: 0");
  const devices = page.getByRole("table", { name: "Devices" });
  await expect(devices.getByRole("cell", { name: "E2E laptop" })).toBeVisible();
  await page.getByRole("button", { name: "Reset all devices" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Reset devices" }).click();
  await expect(page.getByTestId("transfer-count")).toContainText("Transfer count: 1");
  await expect(page.getByRole("status").filter({ hasText: "ended 1 activation" })).toBeVisible();

  await page.getByRole("button", { name: "Block", exact: true }).first().click();
  await page.getByRole("dialog").getByRole("button", { name: "Block" }).click();
  await expect(page.getByText("Blocked", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Unblock" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Unblock" }).click();
  await expect(page.getByText("Allowed", { exact: true })).toBeVisible();
  // The device list filters: no blocked device now; by name it is there.
  await page.getByLabel("Blocked only").check();
  await expect(page.getByText("No device matches the filters.")).toBeVisible();
  await expect(page).toHaveURL(/[?&]devices\.blocked=true/);
  await page.getByLabel("Blocked only").uncheck();
  await page.getByLabel("Filter devices by name").fill("laptop");
  await expect(page).toHaveURL(/[?&]devices\.name=laptop/);
  await expect(devices.getByRole("cell", { name: "E2E laptop" })).toBeVisible();

  await page.getByRole("tab", { name: "Usage and balances" }).click();
  await page.getByLabel("Amount").fill("250");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("balance-remaining")).toContainText("Remaining: 250");
  await expect(
    page.getByRole("region", { name: "Credit balances" }).getByTestId("balance-chart"),
  ).toBeVisible();
  await screenshot(page, "devices-and-balances");
});

test("the signed-in user sees the activation codes of their entitlements in the portal", async ({
  page,
  state,
}) => {
  const code = await withTenantContext(state, async (ctx) => {
    const customer = await seedConsumerCustomer(ctx, state.consumer.email);
    const entitlement = await seedEntitlement(ctx, { name: "Casey's licence", customerId: customer.id });
    const issued = await issueActivationCodes(ctx, entitlement.id, { count: 1, deviceLimit: 2 });
    return issued.codes[0].code;
  });
  await signIn(page, "portal", state.consumer);
  const panel = page.getByRole("region", { name: "Your activation codes" });
  await expect(panel.getByTestId("my-activation-codes")).toContainText(code);
  await expect(panel).toContainText("0 of 2 devices");
  await screenshot(page, "portal-activation-codes");
});
