import { expect, screenshot, signIn, test } from "./support/fixtures.ts";

test("staff register an API client, see its secret once, and revoke it", async ({ page, state }) => {
  await signIn(page, "admin", state.staff);
  await page
    .getByRole("navigation", { name: "Back office" })
    .getByRole("link", { name: "API clients" })
    .click();
  await expect(page.getByRole("heading", { name: "API clients", level: 1 })).toBeVisible();
  // createTenant registered an admin and an integrator client (other specs may have added theirs).
  const rows = page.locator("table.table tbody tr");
  await expect(rows.filter({ has: page.getByRole("cell", { name: "Admin", exact: true }) })).toHaveCount(1);
  await expect(rows.filter({ has: page.getByRole("cell", { name: "Integrator", exact: true }) })).toHaveCount(
    1,
  );

  await page.getByRole("button", { name: "New API client" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name", { exact: true }).fill("Billing backend");
  await dialog.getByLabel("Kind").selectOption("admin");

  // A pattern that names nothing in the catalog is refused before it is added.
  await dialog.getByLabel("Scope pattern").fill("provision.nothing.*");
  await dialog.getByRole("button", { name: "Add pattern" }).click();
  await expect(dialog.getByText("matches no scope of the catalog")).toBeVisible();
  await dialog.getByLabel("Scope pattern").fill("provision.product.*");
  await dialog.getByRole("button", { name: "Add pattern" }).click();
  await dialog.getByLabel("provision.tag.read").check();
  await dialog.getByLabel("provision.tag.create").check();
  await screenshot(page, "clients-create");
  await dialog.getByRole("button", { name: "Create client" }).click();

  // The secret, shown once with a warning and copy buttons.
  await expect(dialog.getByText("It is shown only this once")).toBeVisible();
  const clientId = (await dialog.getByTestId("created-client-id").textContent())!.trim();
  const secret = (await dialog.getByTestId("client-secret").textContent())!.trim();
  expect(secret.length).toBeGreaterThan(20);
  await expect(dialog.getByRole("button", { name: "Copy secret" })).toBeVisible();
  await screenshot(page, "clients-secret");

  // The credentials work at the token endpoint, capped to the registered scopes.
  const token = await page.request.post("/auth/connect/token", {
    form: {
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: secret,
      scope: "provision.tag.read provision.product.read provision.session.read",
    },
  });
  expect(token.status()).toBe(200);
  expect((await token.json()).scope).toBe("provision.product.read provision.tag.read");

  await dialog.getByRole("button", { name: "I have stored the secret" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByText(secret)).toHaveCount(0);
  const created = rows.filter({ hasText: "Billing backend" });
  await expect(created).toContainText(clientId);
  await expect(created).toContainText("provision.product.*");
  await expect(created).toContainText("active");

  // Revoke, after confirming.
  await created.getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByRole("dialog")).toContainText(clientId);
  await page.getByRole("dialog").getByRole("button", { name: "Revoke client" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(created).toContainText("revoked");
  await expect(created.getByRole("button", { name: "Revoke" })).toHaveCount(0);
  await screenshot(page, "clients");

  const refused = await page.request.post("/auth/connect/token", {
    form: { grant_type: "client_credentials", client_id: clientId, client_secret: secret },
  });
  expect(refused.status()).toBe(401);
});
