import { randomUUID } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { issueActivationCodes } from "../server/domain/licensing/activation-codes/issue-activation-codes.ts";
import { expect, expectSettled, open, screenshot, signIn, test } from "./support/fixtures.ts";
import { seedConsumerCustomer, seedEntitlement, withTenantContext } from "./support/seed.ts";
import { licenseClient } from "./support/license-client.ts";
import type { E2eState } from "./support/state.ts";

/** A Published entitlement with an activation code; with `forConsumer`, assigned to the portal's consumer. */
async function seedLicense(state: E2eState, options: { name: string; seats: number; forConsumer?: boolean }) {
  return withTenantContext(state, async (ctx) => {
    const customerId = options.forConsumer
      ? (await seedConsumerCustomer(ctx, state.consumer.email)).id
      : undefined;
    const entitlement = await seedEntitlement(ctx, {
      name: options.name,
      claimBasedActivation: {
        leaseTime: "PT1H",
        gracePeriod: "P1D",
        numberOfSeats: options.seats,
        isFloatingLicense: false,
      },
      customerId: customerId ?? null,
    });
    const issued = await issueActivationCodes(ctx, entitlement.id, { count: 1, deviceLimit: null });
    return { entitlementId: entitlement.id, code: issued.codes[0].code, customerId };
  });
}

async function activate(request: APIRequestContext, code: string, deviceName: string) {
  const res = await request.post("/api/v1/provision/activations/jwt", {
    data: { activationCode: code, fingerprint: `e2e-${randomUUID()}`, deviceName },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as string;
}

test("the back office lists sessions and shows an entitlement's live seats over time", async ({
  page,
  state,
}) => {
  const { entitlementId, code } = await seedLicense(state, {
    name: `E2E seats ${randomUUID().slice(0, 6)}`,
    seats: 3,
  });
  await activate(page.request, code, "E2E workstation");
  await activate(page.request, code, "E2E build agent");

  await signIn(page, "admin", state.staff);
  const nav = page.getByRole("navigation", { name: "Back office" });
  await nav.getByRole("link", { name: "Sessions", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Sessions", level: 1 })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Sessions", exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(page.getByRole("cell", { name: /^E2E workstation/ })).toBeVisible();
  await screenshot(page, "sessions");

  await page.getByLabel("Device name").fill("build agent");
  await expectSettled(page);
  await expect(page.getByRole("cell", { name: /^E2E build agent/ })).toBeVisible();
  await expect(page.getByRole("cell", { name: /^E2E workstation/ })).toHaveCount(0);
  await page.getByLabel("Device name").fill("");

  await open(page, `/admin/sessions?entitlementId=${entitlementId}`);
  const seats = page.getByTestId("live-seats");
  // The sort below acts on this entitlement's rows, so the list has settled on them first.
  await expectSettled(page);
  await expect(seats.getByTestId("seats-in-use")).toHaveText(/2 of 3 seats in use/);
  await expect(seats.getByTestId("seat-chart")).toBeVisible();
  await expect(seats.getByTestId("seat-chart").locator("rect")).not.toHaveCount(0);
  await expect(page.getByRole("table").getByText("Active", { exact: true })).toHaveCount(2);
  await page.getByRole("button", { name: /Device/ }).click();
  await expectSettled(page);
  await expect(page.getByRole("row").nth(1)).toContainText("E2E build agent");
  await screenshot(page, "sessions-live-seats");

  // One customer user's sessions (the by-user read): only those on their licenses.
  const casey = await seedLicense(state, {
    name: `Casey's e2e ${randomUUID().slice(0, 6)}`,
    seats: 1,
    forConsumer: true,
  });
  await activate(page.request, casey.code, "Casey tablet");
  await open(page, `/admin/sessions?userId=${casey.customerId!}`);
  await expectSettled(page);
  await expect(page.getByRole("cell", { name: /^Casey tablet/ })).toBeVisible();
  await expect(page.getByRole("cell", { name: /^E2E workstation/ })).toHaveCount(0);
  await screenshot(page, "sessions-by-customer-user");
  await open(page, `/admin/sessions?entitlementId=${entitlementId}`);

  await seats.getByLabel("Chart window").selectOption("7d");
  await expect(seats.getByTestId("seat-chart")).toBeVisible();
  await page.getByLabel("State").selectOption("ended");
  await expectSettled(page);
  await expect(page.getByText("No session matches these filters.")).toBeVisible();

  // The entitlement's page shows the same live seats, linking back to its sessions.
  await open(page, `/admin/entitlements/${entitlementId}?tab=seats`);
  await expect(page.getByTestId("live-seats").getByTestId("seats-in-use")).toHaveText(/2 of 3 seats in use/);
  await page.getByRole("link", { name: "See its sessions" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/sessions\\?entitlementId=${entitlementId}$`));
  await expect(page.getByRole("cell", { name: /^E2E workstation/ })).toBeVisible();
});

test("a portal user sees their license, its plans and their session, and releases the session", async ({
  page,
  state,
}) => {
  const name = `Casey's seats ${randomUUID().slice(0, 6)}`;
  const device = `Casey laptop ${randomUUID().slice(0, 6)}`;
  const { code } = await seedLicense(state, { name, seats: 2, forConsumer: true });
  // The laptop's session comes from the reference client, which verifies its token offline.
  const stateFile = path.join(await mkdtemp(path.join(tmpdir(), "e2e-client-")), "license.json");
  const activated = await licenseClient(
    "activate",
    "--url",
    state.baseUrl,
    "--code",
    code,
    "--fingerprint",
    `e2e-${randomUUID()}`,
    "--device-name",
    device,
    "--state-file",
    stateFile,
  );
  expect(activated.code, activated.stderr).toBe(0);
  const otherDevice = `Casey desktop ${randomUUID().slice(0, 6)}`;
  const otherToken = await activate(page.request, code, otherDevice);

  await signIn(page, "portal", state.consumer);
  const licenses = page.getByRole("region", { name: "Your licenses" });
  const license = licenses.getByTestId("my-license").filter({ hasText: name });
  await expect(license).toContainText("2 of 2 seats in use");
  await license.getByRole("button", { name: "Plans" }).click();
  await expect(license.getByTestId("plans")).toContainText("No plan is attached to this license.");

  const sessions = page.getByRole("region", { name: "Your sessions" });
  const session = sessions.getByTestId("my-session").filter({ hasText: device });
  await expect(session).toContainText(name);
  await expect(session).toContainText("lease until");
  await expect(page.getByRole("region", { name: "Your activation codes" })).toContainText(code);
  await screenshot(page, "portal-sessions");

  await session.getByRole("button", { name: `Release ${device}` }).click();
  await page
    .getByRole("dialog", { name: `Release ${device}?` })
    .getByRole("button", { name: `Release ${device}` })
    .click();
  await expect(session).toHaveCount(0);
  await expect(license).toContainText("1 of 2 seats in use");
  await screenshot(page, "portal-session-released");
  // The application learns at its next contact that its session is gone (exit 3: license.no_active_session).
  const renewed = await licenseClient("renew", "--state-file", stateFile);
  expect(renewed.code, renewed.stderr).toBe(3);

  // The application released the other seat itself meanwhile: the portal shows the server's refusal.
  const sessionId = JSON.parse(Buffer.from(otherToken.split(".")[1], "base64url").toString("utf8"))
    .sub as string;
  const released = await page.request.post(`/api/v1/provision/activations/${sessionId}/release`, {
    headers: { authorization: `Bearer ${otherToken}` },
  });
  expect(released.status()).toBe(200);
  const stale = sessions.getByTestId("my-session").filter({ hasText: otherDevice });
  await stale.getByRole("button", { name: `Release ${otherDevice}` }).click();
  const staleDialog = page.getByRole("dialog", { name: `Release ${otherDevice}?` });
  await staleDialog.getByRole("button", { name: `Release ${otherDevice}` }).click();
  await expect(staleDialog.getByTestId("problem")).toHaveAttribute("data-code", "license.no_active_session");
  await screenshot(page, "portal-session-release-refused");
});
