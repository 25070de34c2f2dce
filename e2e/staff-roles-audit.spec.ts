import { expect, expectSettled, hydrated, open, screenshot, signIn, test } from "./support/fixtures.ts";
import { withTenantContext } from "./support/seed.ts";
import { createUser } from "../server/domain/identity/users.ts";

const editor = { email: "editor.e2e@example.com", password: "editor-password-123" };

test("an owner demotes a catalog editor to read-only: the editor's next change is refused, and the audit trail lists the role change", async ({
  page,
  browser,
  state,
}) => {
  await withTenantContext(state, (ctx) =>
    createUser(ctx, { ...editor, kind: "staff", staffRole: "catalog-editor", name: "Eddie Editor" }),
  );

  // The editor is signed in (in a browser of their own) before the change.
  const editorContext = await browser.newContext({ baseURL: state.baseUrl });
  const editorPage = await editorContext.newPage();
  await signIn(editorPage, "admin", { ...editor, tenant: state.tenantSlug });

  // The owner changes the editor's role on Users and roles.
  await signIn(page, "admin", state.staff);
  await page
    .getByRole("navigation", { name: "Back office" })
    .getByRole("link", { name: "Users and roles" })
    .click();
  await expect(page.getByRole("heading", { name: "Users and roles", level: 1 })).toBeVisible();
  const role = page.getByLabel(`Role of ${editor.email}`);
  await expect(role).toHaveValue("catalog-editor");
  await role.selectOption("read-only");
  await expect(role).toHaveValue("read-only");
  await page.reload();
  await hydrated(page);
  await expect(page.getByLabel(`Role of ${editor.email}`)).toHaveValue("read-only");
  await screenshot(page, "staff-users-and-roles");

  // The editor's next action: creating a tag is refused by their new role.
  await open(editorPage, "/admin/tags");
  await editorPage.getByRole("button", { name: "New tag" }).click();
  await editorPage.getByRole("dialog").getByLabel("Scope", { exact: true }).selectOption("Product");
  await editorPage.getByRole("dialog").getByLabel("Name", { exact: true }).fill("Not allowed");
  await editorPage.getByRole("dialog").getByRole("button", { name: "Create tag" }).click();
  const refused = editorPage.getByRole("dialog").getByTestId("problem");
  await expect(refused).toHaveAttribute("data-code", "staff.permission_denied");
  await screenshot(editorPage, "staff-role-refused");
  await editorContext.close();

  // The audit trail lists the change: who, what, and the field that changed.
  await page
    .getByRole("navigation", { name: "Back office" })
    .getByRole("link", { name: "Audit trail" })
    .click();
  await expect(page.getByRole("heading", { name: "Audit trail", level: 1 })).toBeVisible();
  await page.getByLabel("Filter by action").fill("user.updated");
  await expectSettled(page);
  const row = page.locator("table.table tbody tr").filter({ hasText: "staffUsers.changeRole" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(state.staff.email);
  await expect(row).toContainText("staffRole");
  await expect(row.locator(".audit-from")).toHaveText("catalog-editor");
  await expect(row.locator(".audit-to")).toHaveText("read-only");
  await expect(page).toHaveURL(/action=user.updated/);
  await screenshot(page, "audit-trail");
});
