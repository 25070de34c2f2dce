import { randomUUID } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { defaultKeyIssuancePolicy } from "../server/domain/entitlements/entitlement/key-issuance-policy.schemas.ts";
import { issueActivationCodes } from "../server/domain/licensing/activation-codes/issue-activation-codes.ts";
import { expect, open, screenshot, signIn, test } from "./support/fixtures.ts";
import { licenseClient } from "./support/license-client.ts";
import { withTenantDb } from "./support/seed.ts";
import type { E2eState } from "./support/state.ts";

/**
 * A license of the portal's consumer with a metered metric (`api-calls`, per day, 1,000 included,
 * overage funded by `ai-credits`) and a credit balance the consumer may top up, refilled nightly.
 */
async function seedMeteredLicense(state: E2eState, name: string) {
  return withTenantDb(state, async (db) => {
    const user = await db.user.findFirstOrThrow({ where: { email: state.consumer.email } });
    const customer = await db.customerUser.create({
      data: { tenantId: state.tenantId, userId: user.id, email: user.email, roles: [], organizationIds: [] },
    });
    const code = `E2E_CALLS_${randomUUID().slice(0, 6).toUpperCase()}`;
    await db.featureCatalogEntry.create({
      data: {
        tenantId: state.tenantId,
        featureCode: code,
        activeCodeKey: code,
        name: "API calls",
        metricName: "api-calls",
        featureType: "Metered",
        lifecycleStatus: "Published",
      },
    });
    const entitlement = await db.entitlement.create({
      data: {
        tenantId: state.tenantId,
        name,
        features: [
          {
            id: randomUUID(),
            featureCode: code,
            productId: randomUUID(),
            moduleName: null,
            name: "API calls",
            description: "",
            value: "1000",
            isEnabled: true,
            isAvailableDuringTrialPeriod: true,
            isAvailableDuringGracePeriod: true,
            isPaidFeature: false,
            canModifyValueOnEntitlement: false,
            includeInLicenseToken: false,
            meteredAssetId: null,
            featureExpiration: null,
            catalogLifecycleStatus: "Published",
          },
        ],
        activationPolicy: {},
        keyIssuancePolicy: defaultKeyIssuancePolicy(),
        productIds: [],
        claimBasedActivation: {
          leaseTime: "PT1H",
          gracePeriod: "P1D",
          numberOfSeats: 3,
          isFloatingLicense: false,
        },
        customerKind: "User",
        customerId: customer.id,
        consumersMayGrantCredits: true,
      },
    });
    const asset = (metricName: string, assetName: string) =>
      db.monitoredAsset.create({
        data: {
          tenantId: state.tenantId,
          ownerKind: "Entitlement",
          ownerId: entitlement.id,
          entitlementId: entitlement.id,
          ownerStatus: "Published",
          metricName,
          name: assetName,
        },
      });
    const calls = await asset("api-calls", "API calls");
    await db.meteredUsage.create({
      data: {
        tenantId: state.tenantId,
        monitoredAssetId: calls.id,
        consumptionPeriod: "day",
        usageTiers: [
          {
            name: "Included",
            startUsage: 0,
            startPercentage: 0,
            endUsage: 1000,
            endPercentage: 0,
            baseCredits: 0,
            creditsPerUnitOfConsumption: 0,
            quotaUsageLevel: "None",
            quotaUsagePolicy: "None",
            fundingBalanceMetric: "",
          },
          {
            name: "Overage",
            startUsage: 1000,
            startPercentage: 0,
            endUsage: null,
            endPercentage: 0,
            baseCredits: 0,
            creditsPerUnitOfConsumption: 0.1,
            quotaUsageLevel: "Medium",
            quotaUsagePolicy: "AllowWithOverage",
            fundingBalanceMetric: "ai-credits",
          },
        ],
      },
    });
    const credits = await asset("ai-credits", "AI credits");
    await db.balanceUsage.create({
      data: {
        tenantId: state.tenantId,
        monitoredAssetId: credits.id,
        name: "AI credits",
        totalCredits: 500,
        initialCreditAmount: 500,
        usageQuota: [{ endUsage: 50, name: "Low", quotaUsageLevel: "High" }],
        autoBalanceCronSchedule: "0 2 * * *",
        autoBalanceCreditAmount: 500,
      },
    });
    const issued = await issueActivationCodes(
      { tenantId: state.tenantId, actor: { kind: "system", id: "e2e" }, db },
      entitlement.id,
      { count: 1, deviceLimit: null },
    );
    return { entitlementId: entitlement.id, code: issued.codes[0].code };
  });
}

test("the reference client records and uploads usage, then the portal's chart and the back office's meter show it", async ({
  page,
  state,
}) => {
  const name = `Metered license ${randomUUID().slice(0, 6)}`;
  const { entitlementId, code } = await seedMeteredLicense(state, name);
  const stateFile = path.join(await mkdtemp(path.join(tmpdir(), "e2e-usage-")), "license.json");
  const run = (...args: string[]) => licenseClient(...args, "--state-file", stateFile);
  expect(
    (await run("activate", "--url", state.baseUrl, "--code", code, "--fingerprint", `fp-${randomUUID()}`))
      .code,
  ).toBe(0);
  for (const amount of ["400", "350", "300"])
    expect((await run("usage", "record", "--metric", "api-calls", "--amount", amount)).code).toBe(0);
  const uploaded = await run("usage", "upload");
  expect(uploaded.code, uploaded.stderr).toBe(0);
  expect(uploaded.json).toMatchObject({ counted: 3, pending: 0 });
  expect((await run("consume", "--metric", "ai-credits", "--amount", "20")).json).toMatchObject({
    allowed: true,
  });

  // Portal: the license's usage per period, the credits left (500 - 5 overage - 20), and a top-up.
  await signIn(page, "portal", state.consumer);
  const usage = page.getByRole("region", { name: "Your usage" });
  await expect(usage).toBeVisible();
  // The panel offers a license picker once the user holds several licenses (other tests add some).
  await expect(usage.getByTestId("my-usage")).toBeVisible();
  const picker = usage.getByLabel("License");
  if (await picker.count()) await picker.selectOption({ label: name });
  const calls = usage.getByTestId("my-meter").filter({ hasText: "api-calls" });
  await expect(calls.getByTestId("my-meter-usage")).toContainText("1050 of 1000 used this period");
  await expect(calls.getByTestId("usage-chart")).toBeVisible();
  await expect(calls.getByTestId("severity")).toHaveText("Medium");
  await expect(calls).toContainText("Usage level");
  const credits = usage.getByTestId("my-meter").filter({ hasText: "ai-credits" });
  await expect(credits.getByTestId("my-remaining-credits")).toHaveText("475 of 500 credits remaining");
  await expect(credits.getByTestId("balance-chart")).toBeVisible();
  await screenshot(page, "portal-usage");
  const addCredits = credits.getByRole("spinbutton", { name: /^Add credits to / });
  await addCredits.fill("25");
  await credits.getByRole("button", { name: "Add credits" }).click();
  // A grant asks first, naming the amount and the balance after it.
  await page.getByRole("dialog").getByRole("button", { name: "Add 25 credits" }).click();
  await expect(credits.getByTestId("my-remaining-credits")).toHaveText("500 of 500 credits remaining");
  await addCredits.fill("-3");
  await credits.getByRole("button", { name: "Add credits" }).click();
  await expect(credits.getByText("Enter a number of credits greater than 0.")).toBeVisible();

  // Back office: the meter with its chart and tiers, the balance over time and the schedule preview.
  await signIn(page, "admin", state.staff);
  await open(page, `/admin/meters?entitlementId=${entitlementId}`);
  const panel = page.getByTestId("meters-panel");
  const row = panel.getByTestId("meter-row").filter({ hasText: "api-calls" });
  await expect(row).toContainText("1050");
  await panel.getByRole("button", { name: "api-calls" }).click();
  await expect(panel.getByTestId("meter-usage")).toContainText("1050 of 1000");
  await expect(panel.getByTestId("usage-chart")).toBeVisible();
  await expect(panel.getByRole("table", { name: "Tiers" })).toContainText("AllowWithOverage");
  await screenshot(page, "admin-meters");
  await panel.getByRole("button", { name: "ai-credits" }).click();
  await expect(panel.getByTestId("remaining-credits")).toHaveText("500");
  await expect(panel.getByTestId("balance-chart")).toBeVisible();
  const preview = panel.getByTestId("auto-balance-preview");
  await expect(preview.getByRole("listitem")).toHaveCount(5);
  await screenshot(page, "admin-meter-balance");
  await open(page, `/admin/entitlements/${entitlementId}?tab=usage`);
  await expect(page.getByTestId("meters-panel").getByTestId("meter-row")).toHaveCount(2);
});
