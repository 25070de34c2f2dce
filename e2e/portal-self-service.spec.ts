import { randomUUID } from "node:crypto";
import { issueActivationCodes } from "../server/domain/licensing/activation-codes/issue-activation-codes.ts";
import { expect, open, screenshot, signIn, test } from "./support/fixtures.ts";
import { withTenantContext } from "./support/seed.ts";
import { plannedLicense } from "./support/planned-license.ts";
import type { E2eState } from "./support/state.ts";

/**
 * A license of the portal's consumer on plan Basic (free) of a published plan set that also has
 * Pro (EUR 49 /month), with a credit balance of 40 that the consumer may add to: at most 100
 * credits a grant, 150 a month.
 */
async function seedPlannedLicense(state: E2eState, name: string) {
  return withTenantContext(state, async (ctx) => {
    const suffix = randomUUID().slice(0, 6).toUpperCase();
    const { entitlementId } = await plannedLicense(ctx, state, {
      name,
      prefix: "Studio",
      suffix,
      credits: { metricName: "render-credits", name: "Render credits" },
    });
    const issued = await issueActivationCodes(ctx, entitlementId, { count: 1, deviceLimit: null });
    return { entitlementId, code: issued.codes[0].code };
  });
}

test("the customer requests a plan change, staff approve it, the portal shows the new plan and both steps of its history", async ({
  page,
  state,
}) => {
  const name = `Studio license ${randomUUID().slice(0, 6)}`;
  await seedPlannedLicense(state, name);

  await signIn(page, "portal", state.consumer);
  const license = page
    .getByRole("region", { name: "Your licenses" })
    .getByTestId("my-license")
    .filter({ hasText: name });
  await expect(license.getByTestId("license-plan")).toHaveText("Basic");
  await license.getByRole("button", { name: `Plans of ${name}` }).click();
  const plans = license.getByRole("table", { name: "Plans of this license" });
  await expect(plans.getByRole("row", { name: /Price/ })).toContainText("Free");
  await expect(plans.getByRole("row", { name: /Price/ })).toContainText("EUR 49 per month");
  await screenshot(page, "portal-plans-compared");

  await plans.getByRole("button", { name: "Choose Pro" }).click();
  const dialog = page.getByRole("dialog", { name: `Change ${name} to Pro?` });
  await expect(dialog).toContainText(`${name} stays on Basic until they approve it.`);
  await dialog.getByLabel("Note for your vendor (optional)").fill("We are hiring");
  await screenshot(page, "portal-plan-change-confirm");
  await dialog.getByRole("button", { name: "Request Pro" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(license.getByTestId("pending-plan-change")).toContainText("You asked to change to Pro");
  await screenshot(page, "portal-plan-change-pending");

  // Staff see it at once on their Plan changes page and approve it.
  const staffContext = await page.context().browser()!.newContext({ baseURL: state.baseUrl });
  const staffPage = await staffContext.newPage();
  await signIn(staffPage, "admin", state.staff);
  await open(staffPage, "/admin/plan-change-requests");
  const row = staffPage.getByRole("row").filter({ hasText: "We are hiring" });
  await expect(row).toContainText("Pro");
  await screenshot(staffPage, "admin-plan-change-from-portal");
  await row.getByRole("button", { name: /^Approve Pro for / }).click();
  const review = staffPage.getByRole("dialog", { name: `Approve Pro for ${name}?` });
  await review.getByLabel("Note to the customer").fill("Welcome to Pro");
  await screenshot(staffPage, "admin-plan-change-review");
  await review.getByRole("button", { name: "Approve" }).click();
  await expect(staffPage.getByRole("row").filter({ hasText: "We are hiring" })).toHaveCount(0);
  await staffContext.close();

  await page.reload();
  const after = page
    .getByRole("region", { name: "Your licenses" })
    .getByTestId("my-license")
    .filter({ hasText: name });
  await expect(after.getByTestId("license-plan")).toHaveText("Pro");
  await after.getByRole("button", { name: `Plans of ${name}` }).click();
  await expect(after.getByTestId("plan-change-request")).toContainText("Change to Pro requested");
  await expect(after.getByTestId("plan-change-request")).toContainText("approved");
  await expect(after.getByTestId("plan-change-request")).toContainText("Welcome to Pro");
  await after.getByRole("button", { name: `History of ${name}` }).click();
  const periods = after.getByTestId("plan-period");
  await expect(periods).toHaveCount(2);
  await expect(periods.nth(0)).toContainText("Pro");
  await expect(periods.nth(0)).toContainText("Your request, approved");
  await expect(periods.nth(0)).toContainText("EUR 49 /month");
  await expect(periods.nth(1)).toContainText("Basic");
  await expect(periods.nth(1)).toContainText("License issued");
  await expect(periods.nth(1)).toContainText("Free");
  await screenshot(page, "portal-billing-history");
});

test("credit grants: past the limit refused plainly with the balance unchanged; within it confirmed and recorded with the customer's name", async ({
  page,
  state,
}) => {
  const name = `Render license ${randomUUID().slice(0, 6)}`;
  await seedPlannedLicense(state, name);
  await signIn(page, "portal", state.consumer);
  const usage = page.getByRole("region", { name: "Your usage" });
  // The panel offers a license picker once the consumer holds several (other specs add theirs).
  await expect(usage.getByTestId("my-usage")).toBeVisible();
  const picker = usage.getByRole("combobox", { name: "License", exact: true });
  if (await picker.count()) await picker.selectOption({ label: name });
  const meter = usage.getByTestId("my-meter").filter({ hasText: "Render credits" });
  await expect(meter.getByTestId("my-remaining-credits")).toHaveText("40 of 40 credits remaining");
  // Within every band: no "None" badge for a customer to decode.
  await expect(meter.getByTestId("severity")).toHaveCount(0);

  await meter.getByRole("spinbutton", { name: "Add credits to Render credits" }).fill("250");
  await meter.getByRole("button", { name: "Add credits" }).click();
  let dialog = page.getByRole("dialog", { name: "Add 250 credits to Render credits?" });
  await expect(dialog).toContainText("The balance goes from 40 to 290 credits.");
  await dialog.getByRole("button", { name: "Add 250 credits" }).click();
  await expect(meter.getByRole("alert")).toContainText("That is more credits than you may add yourself.");
  await expect(meter.getByRole("alert")).toContainText(
    "You can add at most 100 credits at a time; 250 is more than that.",
  );
  await expect(meter.getByTestId("my-remaining-credits")).toHaveText("40 of 40 credits remaining");
  await screenshot(page, "portal-grant-refused");

  await meter.getByRole("spinbutton", { name: "Add credits to Render credits" }).fill("60");
  await meter.getByRole("button", { name: "Add credits" }).click();
  dialog = page.getByRole("dialog", { name: "Add 60 credits to Render credits?" });
  await expect(dialog).toContainText("The balance goes from 40 to 100 credits.");
  await screenshot(page, "portal-grant-confirm");
  await dialog.getByRole("button", { name: "Add 60 credits" }).click();
  await expect(meter.getByTestId("my-remaining-credits")).toHaveText("100 of 100 credits remaining");
  const history = meter.getByRole("table", { name: "Balance history" });
  await expect(history.getByRole("row").nth(1)).toContainText("Added");
  await expect(history.getByRole("row").nth(1)).toContainText("60");
  await expect(history.getByRole("row").nth(1)).toContainText(state.consumer.name);
  await screenshot(page, "portal-grant-recorded");
});

test("releasing a session asks first and names what will happen", async ({ page, state }) => {
  const name = `Laptop license ${randomUUID().slice(0, 6)}`;
  const device = `Review laptop ${randomUUID().slice(0, 4)}`;
  const { code } = await seedPlannedLicense(state, name);
  const res = await page.request.post("/api/v1/provision/activations/jwt", {
    data: { activationCode: code, fingerprint: `e2e-${randomUUID()}`, deviceName: device },
  });
  expect(res.status(), await res.text()).toBe(200);

  await signIn(page, "portal", state.consumer);
  await expect(page.getByRole("region", { name: "Your activation codes" }).getByText(code)).toBeVisible();
  await expect(
    page
      .getByRole("region", { name: "Your activation codes" })
      .getByRole("listitem")
      .filter({ hasText: code }),
  ).toContainText(`for ${name}`);
  const session = page
    .getByRole("region", { name: "Your sessions" })
    .getByTestId("my-session")
    .filter({ hasText: device });
  await session.getByRole("button", { name: `Release ${device}` }).click();
  const dialog = page.getByRole("dialog", { name: `Release ${device}?` });
  await expect(dialog).toContainText(`${device} will stop working until it activates again.`);
  await expect(dialog).toContainText(`Its seat on ${name} is freed for another device.`);
  await screenshot(page, "portal-release-confirm");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(session).toBeVisible();
  await session.getByRole("button", { name: `Release ${device}` }).click();
  await page
    .getByRole("dialog", { name: `Release ${device}?` })
    .getByRole("button", { name: `Release ${device}` })
    .click();
  await expect(session).toHaveCount(0);
});
