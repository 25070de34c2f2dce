import { expect, open, screenshot, signIn, test } from "./support/fixtures.ts";

test("a consumer signs in to the portal and is refused the back office", async ({ page, state }) => {
  await open(page, "/portal");
  await expect(page).toHaveURL(/\/portal\/sign-in$/);
  await screenshot(page, "portal-sign-in");

  await signIn(page, "portal", state.consumer);
  await expect(page.getByRole("heading", { name: `Hello, ${state.consumer.name}` })).toBeVisible();
  await expect(page.getByTestId("tenant-name")).toHaveText(state.tenantName);
  for (const panel of ["Your licenses", "Your sessions", "Your activation codes"]) {
    await expect(page.getByRole("region", { name: panel })).toBeVisible();
    await expect(page.getByRole("region", { name: panel })).not.toContainText("arrives with");
  }
  await screenshot(page, "portal");

  // The back office's layout sends a consumer to the staff sign-in.
  await open(page, "/admin/tags");
  await expect(page).toHaveURL(/\/admin\/sign-in\?refused=consumer$/);
  await expect(page.getByTestId("refused")).toContainText("The back office is for vendor staff");
  await screenshot(page, "portal-consumer-refused-admin");

  // And the staff procedures refuse a consumer's session.
  const input = encodeURIComponent(JSON.stringify({ pageNumber: 1, pageSize: 20 }));
  const list = await page.request.get(`/api/trpc/tags.list?input=${input}`);
  expect(list.status()).toBe(403);
  expect((await list.json()).error.data.code).toBe("FORBIDDEN");
});

test("a staff user is refused the portal", async ({ page, state }) => {
  await signIn(page, "admin", state.staff);
  // Signing out ends the session: the back office asks to sign in again.
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL(/\/admin\/sign-in$/);
  await open(page, "/admin");
  await expect(page).toHaveURL(/\/admin\/sign-in$/);

  await signIn(page, "admin", state.staff);
  await open(page, "/portal");
  await expect(page).toHaveURL(/\/portal\/sign-in\?refused=staff$/);
  await expect(page.getByTestId("refused")).toContainText("The portal is for customers");
  await screenshot(page, "portal-staff-refused");
});

test("an email with accounts at several vendors signs in with the organisation id", async ({
  page,
  state,
}) => {
  const { email, password, otherTenantSlug, otherTenantName } = state.sharedConsumer;
  await open(page, "/portal/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("sign-in-error")).toHaveText(
    "This email has accounts with several vendors; enter the vendor's organisation id.",
  );
  await expect(page.getByLabel("Organisation id", { exact: true })).toBeFocused();
  await screenshot(page, "portal-choose-tenant");
  await page.getByLabel("Organisation id", { exact: true }).fill(otherTenantSlug);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/portal$/);
  await expect(page.getByTestId("tenant-name")).toHaveText(otherTenantName);
  await expect(page.getByRole("heading", { name: "Hello, Pat at Other Vendor" })).toBeVisible();
});

test("a wrong password is refused plainly", async ({ page, state }) => {
  await open(page, "/admin/sign-in");
  await page.getByLabel("Email").fill(state.staff.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("sign-in-error")).toHaveText("The email or password is not right.");
  await expect(page).toHaveURL(/\/admin\/sign-in$/);
});
