import { createHash, randomUUID } from "node:crypto";
import { defaultKeyIssuancePolicy } from "../server/domain/entitlements/key-issuance-policy.schemas.ts";
import { issueActivationCodes } from "../server/domain/entitlements/issue-activation-codes.ts";
import { expect, screenshot, signIn, test } from "./support/fixtures.ts";
import { withTenantDb } from "./support/seed.ts";
import type { E2eState } from "./support/state.ts";

/** An entitlement with one activated device and a credit balance (offers and activation arrive through other screens). */
async function seedEntitlement(state: E2eState) {
  return withTenantDb(state, async (db) => {
    const entitlement = await db.entitlement.create({
      data: {
        tenantId: state.tenantId,
        name: `E2E licence ${randomUUID().slice(0, 6)}`,
        features: [],
        activationPolicy: {},
        claimBasedActivation: {},
        keyIssuancePolicy: defaultKeyIssuancePolicy(),
        productIds: [],
      },
    });
    const device = await db.device.create({
      data: { tenantId: state.tenantId, entitlementId: entitlement.id, fingerprintHash: createHash("sha256").update("e2e-laptop").digest("hex"), deviceName: "E2E laptop" },
    });
    await db.licenseSession.create({
      data: { tenantId: state.tenantId, entitlementId: entitlement.id, deviceId: device.id, productIds: [], leaseExpiresAt: new Date(Date.now() + 3600_000), graceExpiresAt: new Date(Date.now() + 90_000_000), seatHeldUntil: new Date(Date.now() + 3600_000) },
    });
    const asset = await db.monitoredAsset.create({
      data: { tenantId: state.tenantId, ownerKind: "Entitlement", ownerId: entitlement.id, entitlementId: entitlement.id, ownerStatus: "Published", metricName: "credits", name: "Credits" },
    });
    await db.balanceUsage.create({ data: { tenantId: state.tenantId, monitoredAssetId: asset.id, name: "Credits", usageQuota: [] } });
    return entitlement.id;
  });
}

test("issue an activation code, copy it, revoke another; reset and block devices; deposit credits", async ({ page, state }) => {
  const entitlementId = await seedEntitlement(state);
  await signIn(page, "admin", state.staff);

  await page.goto("/admin/activation-codes");
  await page.getByLabel("Entitlement id", { exact: true }).fill(entitlementId);
  await page.getByLabel("Count").fill("2");
  await page.getByLabel("Device limit per code").fill("3");
  await page.getByRole("button", { name: "Issue codes" }).click();
  const issued = page.getByTestId("issued-codes");
  await expect(issued).toContainText("Issued 2 codes");
  await expect(issued.locator("code").first()).toHaveText(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
  await page.getByLabel("Filter by entitlement id").fill(entitlementId);
  await expect(page.getByTestId("activation-code")).toHaveCount(2);
  await expect(page.getByRole("cell", { name: "0 / 3" }).first()).toBeVisible();
  await screenshot(page, "activation-codes");
  await page.getByRole("button", { name: "Revoke" }).first().click();
  await page.getByRole("button", { name: "Revoke code" }).click();
  await expect(page.getByRole("table").getByText("Revoked", { exact: true })).toBeVisible();

  await page.goto(`/admin/devices?entitlementId=${entitlementId}`);
  await expect(page.getByTestId("transfer-count")).toContainText("Transfer count: 0");
  await expect(page.getByRole("cell", { name: "E2E laptop" })).toBeVisible();
  await page.getByRole("button", { name: "Reset all devices" }).click();
  await page.getByRole("button", { name: "Reset devices" }).click();
  await expect(page.getByTestId("transfer-count")).toContainText("Transfer count: 1");
  await expect(page.getByRole("status").filter({ hasText: "ended 1 activation" })).toBeVisible();

  await page.getByRole("button", { name: "Block", exact: true }).first().click();
  await page.getByRole("dialog").getByRole("button", { name: "Block" }).click();
  await expect(page.getByText("Blocked", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Unblock" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Unblock" }).click();
  await expect(page.getByText("Allowed", { exact: true })).toBeVisible();

  await page.getByLabel("Amount").fill("250");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByTestId("balance-remaining")).toContainText("Remaining: 250");
  await expect(page.getByTestId("balance-chart")).toBeVisible();
  await screenshot(page, "devices-and-balances");
});

test("the signed-in user sees the activation codes of their entitlements in the portal", async ({ page, state }) => {
  const code = await withTenantDb(state, async (db) => {
    const user = await db.user.findFirstOrThrow({ where: { email: state.consumer.email } });
    const customer = await db.customerUser.create({ data: { tenantId: state.tenantId, userId: user.id, email: user.email, roles: [], organizationIds: [] } });
    const entitlement = await db.entitlement.create({
      data: {
        tenantId: state.tenantId, name: "Casey's licence", features: [], activationPolicy: {}, claimBasedActivation: {},
        keyIssuancePolicy: defaultKeyIssuancePolicy(), productIds: [], customerKind: "User", customerId: customer.id,
      },
    });
    const ctx = { tenantId: state.tenantId, actor: { kind: "system" as const, id: "e2e" }, db };
    const issued = await issueActivationCodes(ctx, entitlement.id, { count: 1, deviceLimit: 2 });
    return issued.codes[0].code;
  });
  await signIn(page, "portal", state.consumer);
  const panel = page.getByRole("region", { name: "Your activation codes" });
  await expect(panel.getByTestId("my-activation-codes")).toContainText(code);
  await expect(panel).toContainText("0 of 2 devices");
  await screenshot(page, "portal-activation-codes");
});
