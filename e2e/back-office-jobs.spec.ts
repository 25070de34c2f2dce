import { randomUUID } from "node:crypto";
import { createClient } from "../server/domain/identity/oauth-clients.ts";
import { issueActivationCodes } from "../server/domain/licensing/activation-codes/issue-activation-codes.ts";
import { expect, expectSettled, open, screenshot, signIn, test } from "./support/fixtures.ts";
import { fleetLicense } from "./support/fleet.ts";
import { pricedProduct } from "./support/pricing.ts";
import { seedConsumerCustomer, seedEntitlement, withTenantContext } from "./support/seed.ts";
import type { E2eState } from "./support/state.ts";

test.use({ viewport: { width: 1440, height: 900 } });

/** A REST bearer token for the e2e tenant, as a vendor backend would hold one. */
async function restToken(state: E2eState, scopes: string[]) {
  const { client, clientSecret } = await withTenantContext(state, (ctx) =>
    createClient(ctx, { name: `e2e ${randomUUID().slice(0, 6)}`, scopes }),
  );
  const res = await fetch(`${state.baseUrl}/auth/connect/token`, {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: client.clientId,
      client_secret: clientSecret,
      scope: scopes.join(" "),
    }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

test("find a device by name on the fleet Devices page and deactivate it: its sibling stays active", async ({
  page,
  state,
}) => {
  const license = await fleetLicense(state, { devices: ["Review laptop", "Review desktop"] });
  await signIn(page, "admin", state.staff);
  await open(page, "/admin/devices");
  await page.getByLabel("Search devices by name").fill(`Review laptop`);
  await page.getByRole("combobox", { name: "Entitlement" }).fill(license.name);
  await page.getByRole("option", { name: new RegExp(license.name) }).click();
  await expectSettled(page);
  const table = page.getByRole("table", { name: "Devices" });
  await expect(table.locator("tbody tr")).toHaveCount(1);
  await expect(table).toContainText(license.name);
  await page.getByRole("button", { name: "Deactivate Review laptop" }).click();
  const dialog = page.getByRole("dialog", { name: "Deactivate Review laptop?" });
  await expect(dialog).toContainText("seats are free at once");
  await screenshot(page, "jobs-devices-deactivate");
  await dialog.getByRole("button", { name: "Deactivate" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Deactivate Review laptop" })).toHaveCount(0);

  await page.getByLabel("Search devices by name").fill("");
  await expectSettled(page);
  await expect(table.locator("tbody tr")).toHaveCount(2);
  await expect(page.getByRole("button", { name: "Deactivate Review desktop" })).toBeVisible();
  await screenshot(page, "jobs-devices");
});

test("issue an activation code to a customer picked by name", async ({ page, state }) => {
  const name = await withTenantContext(state, async (ctx) => {
    const customer = await seedConsumerCustomer(ctx, state.consumer.email);
    const entitlement = await seedEntitlement(ctx, {
      name: `Casey's studio ${randomUUID().slice(0, 6)}`,
      customerId: customer.id,
    });
    return entitlement.name;
  });
  await signIn(page, "admin", state.staff);
  await open(page, "/admin/activation-codes");
  const form = page.getByRole("form", { name: "Issue activation codes" });
  await form.getByRole("combobox", { name: "Customer" }).fill("Casey");
  // The customer user carries the portal user's email as its label.
  await page.getByRole("option", { name: state.consumer.email }).first().click();
  await form.getByLabel("Entitlement").selectOption({ label: name });
  await form.getByLabel("Count").fill("1");
  await form.getByRole("button", { name: "Issue codes" }).click();
  const issued = page.getByTestId("issued-codes");
  await expect(issued).toContainText("Issued 1 code");
  await expect(issued.locator("code")).toHaveText(/^[0-9A-Z]{4}(-[0-9A-Z]{4}){3}$/);
  await page.getByRole("combobox", { name: "Filter by entitlement" }).fill(name);
  // The issue form's entitlement select holds an option of that name too: pick from the matches.
  await page
    .getByRole("listbox", { name: "Filter by entitlement matches" })
    .getByRole("option", { name: new RegExp(name) })
    .click();
  await expectSettled(page);
  await expect(page.getByTestId("activation-code")).toHaveCount(1);
  await screenshot(page, "jobs-issue-code-by-customer");
});

test("create an offer, then edit, clone and publish it on its page", async ({ page, state }) => {
  const priced = await pricedProduct(state);
  await signIn(page, "admin", state.staff);
  await open(page, "/admin/offers");
  await page.getByRole("button", { name: "New offer" }).click();
  const offerName = `Job offer ${priced.code}`;
  await page.getByLabel("Name", { exact: true }).fill(offerName);
  await page.getByRole("checkbox", { name: new RegExp(`Offer product ${priced.code}`) }).check();
  await page.getByLabel("Plan set").selectOption({ label: priced.planSetName });
  await page.getByLabel("Plan", { exact: true }).selectOption("Team");
  await page.getByLabel("Seats").fill("5");
  await page.getByRole("button", { name: "Create offer" }).click();
  // A new offer opens on its own page.
  await expect(page.getByRole("heading", { level: 1 })).toContainText(offerName);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Draft");

  await page.getByRole("button", { name: "Edit offer" }).click();
  const edit = page.getByRole("dialog", { name: `Edit ${offerName}` });
  await edit.getByLabel("Seats").fill("7");
  await edit.getByLabel("Description").fill("Seven seats for the design team.");
  await edit.getByRole("button", { name: "Save offer" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByText("Seven seats for the design team.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Licensing model and seats" })).toContainText("7");

  await page.getByRole("button", { name: "Clone" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Clone offer" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`${offerName} (copy)`);
  await expect(page.getByRole("region", { name: "Licensing model and seats" })).toContainText("7");
  await page.locator("#main").getByRole("link", { name: "Offers", exact: true }).click();
  await page.getByRole("link", { name: offerName, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText(offerName);

  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("dialog", { name: `Publish ${offerName}?` })).toBeVisible();
  await page.getByRole("button", { name: "Publish offer" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Published");
  await expect(page.getByRole("note")).toContainText("Published: read-only here.");
  await expect(page.getByRole("button", { name: "Edit offer" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Issue an entitlement" })).toBeVisible();
  await screenshot(page, "jobs-offer-page");
});

test("renew an entitlement from its page: the new end date is in REST and in History", async ({
  page,
  state,
}) => {
  const license = await fleetLicense(state, { expirationDateTime: "2027-03-01T12:00:00.000Z" });
  const token = await restToken(state, ["provision.entitlement-adm.read"]);
  await signIn(page, "admin", state.staff);
  await open(page, `/admin/entitlements/${license.id}`);
  await expect(page.getByTestId("entitlement-summary")).toContainText("Ends 1 Mar 2027");
  await page.getByRole("button", { name: "Renew" }).click();
  const dialog = page.getByRole("dialog", { name: `Renew ${license.name}` });
  await dialog.getByLabel("New end date").fill("2027-12-12");
  await screenshot(page, "jobs-renew-dialog");
  await dialog.getByRole("button", { name: "Renew" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByTestId("entitlement-summary")).toContainText("Ends 12 Dec 2027");

  const rest = await fetch(`${state.baseUrl}/api/v1/provision/admin/entitlements/${license.id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(rest.status).toBe(200);
  expect(((await rest.json()) as { expirationDateTime: string }).expirationDateTime).toBe(
    "2027-12-12T12:00:00.000Z",
  );

  await page.getByRole("tab", { name: "History" }).click();
  await expect(page.getByRole("table", { name: "History" })).toContainText("Renewed until 12 Dec 2027");
  await screenshot(page, "jobs-renew-history");
});

test("release one session from the Sessions list: the seat is free at once, the other session runs on", async ({
  page,
  state,
}) => {
  const license = await fleetLicense(state, { devices: ["Release laptop", "Release desktop"] });
  await signIn(page, "admin", state.staff);
  await open(page, "/admin/sessions");
  await page.getByRole("combobox", { name: "Filter by entitlement" }).fill(license.name);
  await page.getByRole("option", { name: new RegExp(license.name) }).click();
  await expectSettled(page);
  const sessions = page.getByRole("table", { name: "Sessions" });
  await expect(sessions.locator("tbody tr")).toHaveCount(2);
  await page.getByRole("button", { name: "Release the session of Release laptop" }).click();
  const dialog = page.getByRole("dialog", { name: "Release the session of Release laptop?" });
  await expect(dialog).toContainText("is freed at once");
  await screenshot(page, "jobs-release-session-dialog");
  await dialog.getByRole("button", { name: "Release session" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expectSettled(page);
  // The default filter shows active sessions: only the desktop's is left.
  await expect(sessions.locator("tbody tr")).toHaveCount(1);
  await expect(sessions).toContainText("Release desktop");
  await expect(page.getByRole("button", { name: "Release the session of Release laptop" })).toHaveCount(0);
  await screenshot(page, "jobs-release-session");
});

test("bulk-revoke three activation codes", async ({ page, state }) => {
  const license = await fleetLicense(state);
  await withTenantContext(state, (ctx) => issueActivationCodes(ctx, license.id, { count: 2 }));
  await signIn(page, "admin", state.staff);
  await open(page, "/admin/activation-codes");
  await page.getByRole("combobox", { name: "Filter by entitlement" }).fill(license.name);
  await page.getByRole("option", { name: new RegExp(license.name) }).click();
  await expectSettled(page);
  await expect(page.getByTestId("activation-code")).toHaveCount(3);
  await page.getByLabel("Select all active codes on this page").check();
  const selection = page.getByRole("region", { name: "Selection" });
  await expect(selection).toContainText("3 selected");
  await selection.getByRole("button", { name: "Revoke selected" }).click();
  const dialog = page.getByRole("dialog", { name: "Revoke 3 codes?" });
  await screenshot(page, "jobs-bulk-revoke-dialog");
  await dialog.getByRole("button", { name: "Revoke 3 codes" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expectSettled(page);
  await expect(
    page.getByRole("table", { name: "Activation codes" }).getByText("Revoked", { exact: true }),
  ).toHaveCount(3);
  await expect(page.getByLabel("Select all active codes on this page")).toBeDisabled();
  await screenshot(page, "jobs-bulk-revoke");
});
