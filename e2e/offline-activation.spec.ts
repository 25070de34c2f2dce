import { readFile } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import { issueActivationCodes } from "../server/domain/licensing/activation-codes/issue-activation-codes.ts";
import { offlineRequestArtifact, verifyOfflineResponse } from "../tests/helpers/offline.ts";
import { expect, screenshot, signIn, test } from "./support/fixtures.ts";
import { seedEntitlement, withTenantContext } from "./support/seed.ts";
import type { E2eState } from "./support/state.ts";

/** A license that allows offline activation, and one of its activation codes. */
async function seedOfflineLicense(state: E2eState) {
  return withTenantContext(state, async (ctx) => {
    const entitlement = await seedEntitlement(ctx, {
      name: `Air-gapped licence ${randomUUID().slice(0, 6)}`,
      claimBasedActivation: { allowOfflineActivation: true, numberOfSeats: 2 },
      expirationDateTime: new Date(Date.now() + 180 * 86_400_000).toISOString(),
    });
    const issued = await issueActivationCodes(ctx, entitlement.id, { count: 1, deviceLimit: null });
    return { entitlement, code: issued.codes[0].code };
  });
}

test("paste an offline request artifact, see the refusal of a bad one, download a response that verifies against the tenant JWKS", async ({
  page,
  state,
}) => {
  const { entitlement, code } = await seedOfflineLicense(state);
  const fingerprint = `e2e-offline-${randomUUID()}`;
  const artifact = offlineRequestArtifact(code, fingerprint);
  await signIn(page, "admin", state.staff);

  await page
    .getByRole("navigation", { name: "Back office" })
    .getByRole("link", { name: "Offline activation", exact: true })
    .click();
  await expect(page.getByRole("heading", { name: "Offline activation", level: 1 })).toBeVisible();

  const request = page.getByLabel("Request artifact (JSON)");
  await request.fill(JSON.stringify({ ...artifact, meta: { ...artifact.meta, schemaVersion: 2 } }, null, 2));
  await page.getByRole("button", { name: "Issue response artifact" }).click();
  const problem = page.getByTestId("problem");
  await expect(problem).toHaveAttribute("data-code", "license.validation_error");

  await request.fill(JSON.stringify(artifact, null, 2));
  await page.getByRole("button", { name: "Issue response artifact" }).click();
  const response = page.getByTestId("offline-response");
  await expect(response).toContainText("Response artifact issued.");
  await expect(response).toContainText(entitlement.name);
  await expect(problem).toHaveCount(0);

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    response.getByRole("link", { name: "Download offline-response.json" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("offline-response.json");
  const downloaded = JSON.parse(await readFile(await download.path(), "utf8"));
  const jwks = await (
    await fetch(`${state.baseUrl}/api/v1/provision/tenants/${state.tenantId}/jwks.json`)
  ).json();
  const { verified, license } = verifyOfflineResponse(jwks, downloaded);
  expect(verified).toBe(true);
  expect(license).toMatchObject({
    schemaVersion: 1,
    nonce: artifact.meta.nonce,
    entitlementId: entitlement.id,
    tenantId: state.tenantId,
    state: "Active",
  });
  await expect(response).toContainText(license.sessionId);
  await page.getByRole("heading", { name: "Offline activation", level: 1 }).hover();
  await screenshot(page, "offline-activation");
});
