import { expect, expectSettled, hydrated, open, screenshot, signIn, test } from "./support/fixtures.ts";
import { recolourTagElsewhere, tagRecords } from "./support/seed.ts";

test("staff manage the tag registry: create, rename, stale edit, duplicate, merge, delete", async ({
  page,
  state,
}) => {
  await open(page, "/admin");
  await expect(page).toHaveURL(/\/admin\/sign-in$/);
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await screenshot(page, "sign-in");

  await signIn(page, "admin", state.staff);
  await expect(page.getByTestId("tenant-name")).toHaveText(state.tenantName);
  await expect(page.getByTestId("dashboard-tenant")).toHaveText(state.tenantName);
  await screenshot(page, "dashboard");

  await page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Tags" }).click();
  await expect(page.getByRole("heading", { name: "Tags", level: 1 })).toBeVisible();
  await expect(page.getByText("No tags yet.")).toBeVisible();

  // Two tags in the Product scope, one with a colour typed as hex.
  await createTag(page, "Product", "Desktop apps", "#1d6fd6");
  await createTag(page, "Product", "Desktop");
  const rows = page.locator("table.table tbody tr");
  await expect(rows).toHaveCount(2);
  await expect(page.getByText("Page 1 of 1")).toBeVisible();

  // Records carrying the tags (no product screens yet: tagged through the domain).
  await tagRecords(state, "Product", [["Desktop apps"], ["Desktop apps", "Desktop"], ["Desktop"]]);
  await page.reload();
  await hydrated(page);
  await expect(row(page, "Desktop apps").getByTestId("usage-count")).toHaveText("2");
  await expect(row(page, "Desktop").getByTestId("usage-count")).toHaveText("2");

  // Rename.
  await row(page, "Desktop apps").getByRole("button", { name: "Edit" }).click();
  await page.getByRole("dialog").getByLabel("Name", { exact: true }).fill("Desktop applications");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(row(page, "Desktop applications")).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // A stale edit: someone else recolours the tag while this dialog is open → 409, nothing saved.
  await row(page, "Desktop applications").getByRole("button", { name: "Edit" }).click();
  await recolourTagElsewhere(state, "Product", "Desktop applications", "#aa3300");
  await page.getByRole("dialog").getByLabel("Name", { exact: true }).fill("Desktop software");
  await page.getByRole("button", { name: "Save" }).click();
  const stale = page.getByRole("dialog").getByTestId("problem");
  await expect(stale).toHaveAttribute("data-code", "concurrency.revision_mismatch");
  await expect(stale).toContainText("Someone else changed this while you were editing.");
  await expect(stale).toContainText("was changed since revision");
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await expect(row(page, "Desktop applications")).toBeVisible();
  await expect(row(page, "Desktop applications").locator(".swatch")).toHaveCSS(
    "background-color",
    "rgb(170, 51, 0)",
  );

  // A duplicate name (case-insensitive) is refused with the server's problem detail.
  await page.getByRole("button", { name: "New tag" }).click();
  await page.getByRole("dialog").getByLabel("Scope", { exact: true }).selectOption("Product");
  await page.getByRole("dialog").getByLabel("Name", { exact: true }).fill("desktop");
  await page.getByRole("button", { name: "Create tag" }).click();
  const duplicate = page.getByRole("dialog").getByTestId("problem");
  await expect(duplicate).toHaveAttribute("data-code", "tag.name_taken");
  await screenshot(page, "tags-duplicate");
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();

  // Client-side validation with the shared schema: an empty name never reaches the server.
  await page.getByRole("button", { name: "New tag" }).click();
  await page.getByRole("dialog").getByLabel("Name", { exact: true }).fill("   ");
  await page.getByRole("button", { name: "Create tag" }).click();
  await expect(page.getByRole("dialog").getByTestId("problem")).toHaveAttribute(
    "data-code",
    "license.validation_error",
  );
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();

  // Merge "Desktop applications" into "Desktop": the record carrying both keeps one.
  await row(page, "Desktop applications").getByRole("button", { name: "Merge" }).click();
  const merge = page.getByRole("dialog");
  await merge.getByLabel("Keep this tag").selectOption({ label: "Desktop (2 uses)" });
  await expect(merge.getByTestId("merge-summary")).toContainText("will be merged into");
  // A search typed after choosing keeps the choice, even once it has answered without it.
  const searched = page.waitForResponse(
    (r) => r.url().includes("tags.list") && decodeURIComponent(r.url()).includes("no such tag"),
  );
  await merge.getByLabel("Find a tag").fill("no such tag");
  await searched;
  await expect(merge.getByLabel("Keep this tag")).toHaveValue(/^[0-9a-f-]{36}$/);
  await expect(merge.getByTestId("merge-summary")).toContainText("will be merged into");
  await screenshot(page, "tags-merge");
  await merge.getByRole("button", { name: "Merge into “Desktop”" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(rows).toHaveCount(1);
  await expect(row(page, "Desktop").getByTestId("usage-count")).toHaveText("3");
  await expect(page.getByText("1 total")).toBeVisible();

  // The merged tag is soft-deleted: visible only with "Show deleted".
  await page.getByLabel("Show deleted").check();
  await expect(rows).toHaveCount(2);
  await expect(row(page, "Desktop applications")).toContainText("deleted");
  await page.getByLabel("Show deleted").uncheck();

  // Filter values are escaped for Sieve: "," and "|" in a name are literal.
  await createTag(page, "Offer", "Promo, spring|2025");
  await page.getByLabel("Filter by name").fill("o, SPRING|2");
  // Counts are of the filtered list only once it has settled (the old rows stay while it loads).
  await expectSettled(page);
  await expect(rows).toHaveCount(1);
  await expect(row(page, "Promo, spring|2025")).toBeVisible();
  await page.getByLabel("Filter by name").fill("");
  await page.getByLabel("Scope", { exact: true }).selectOption("Product");
  await expectSettled(page);
  await expect(rows).toHaveCount(1);
  await expect(row(page, "Desktop")).toBeVisible();
  await page.getByLabel("Scope", { exact: true }).selectOption("");
  await expectSettled(page);
  await expect(rows).toHaveCount(2);

  // Sorting by usage: ascending puts the unused tag first, descending (second click) the used one.
  await page.getByRole("button", { name: /^Usage/ }).click();
  await expectSettled(page);
  await expect(rows.first()).toContainText("Promo, spring|2025");
  await page.getByRole("button", { name: /^Usage/ }).click();
  await expectSettled(page);
  await expect(rows.first()).toContainText("Desktop");
  await screenshot(page, "tags");

  // Delete asks first and says how many records lose the tag.
  await row(page, "Desktop").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("delete-usage")).toContainText("3 records carry this tag");
  await page.getByRole("dialog").getByRole("button", { name: "Delete tag" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(rows).toHaveCount(1);
  await expect(row(page, "Promo, spring|2025")).toBeVisible();
});

test("the tag list pages by 20", async ({ page, state }) => {
  await signIn(page, "admin", state.staff);
  await tagRecords(
    state,
    "FeatureCatalog",
    Array.from({ length: 23 }, (_, i) => [`Feature tag ${String(i + 1).padStart(2, "0")}`]),
  );
  await open(page, "/admin/tags");
  await page.getByLabel("Scope", { exact: true }).selectOption("FeatureCatalog");
  const rows = page.locator("table.table tbody tr");
  await expectSettled(page);
  await expect(rows).toHaveCount(20);
  await expect(page.getByText("Page 1 of 2")).toBeVisible();
  await expect(page.getByText("23 total")).toBeVisible();
  await page.getByRole("button", { name: "Next ›" }).click();
  await expect(page.getByText("Page 2 of 2")).toBeVisible();
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toContainText("Feature tag 21");
  await expect(page.getByRole("button", { name: "Next ›" })).toBeDisabled();
  await page.getByRole("button", { name: "‹ Previous" }).click();
  await expect(page.getByText("Page 1 of 2")).toBeVisible();
  await screenshot(page, "tags-paging");
});

test("a list's filter, sort and page live in the URL: a reload or a link shows the same page", async ({
  page,
  state,
}) => {
  await signIn(page, "admin", state.staff);
  await tagRecords(
    state,
    "MonitoredAsset",
    Array.from({ length: 22 }, (_, i) => [`Linked tag ${String(i + 1).padStart(2, "0")}`]),
  );
  await open(page, "/admin/tags");
  await page.getByLabel("Scope", { exact: true }).selectOption("MonitoredAsset");
  await page.getByLabel("Filter by name").fill("Linked tag");
  await page.getByRole("button", { name: /^Name/ }).click();
  const rows = page.locator("table.table tbody tr");
  // The scope alone already lists "Linked tag 22" first: wait for the typed filter to apply too.
  await expectSettled(page);
  await expect(rows.first()).toContainText("Linked tag 22");
  await page.getByRole("button", { name: "Next ›" }).click();
  await expect(page.getByText("Page 2 of 2")).toBeVisible();
  await expect(page).toHaveURL(/[?&]page=2\b/);
  const url = new URL(page.url());
  expect(Object.fromEntries(url.searchParams)).toEqual({
    scope: "MonitoredAsset",
    q: "Linked tag",
    sort: "-name",
    page: "2",
  });

  await page.reload();
  await hydrated(page);
  await expect(page.getByText("Page 2 of 2")).toBeVisible();
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText("Linked tag 02");
  await expect(page.getByLabel("Filter by name")).toHaveValue("Linked tag");
  await expect(page.getByLabel("Scope", { exact: true })).toHaveValue("MonitoredAsset");

  // A change of filter goes back to page 1; the menu's link opens the list as it starts.
  await page.getByLabel("Filter by name").fill("Linked tag 1");
  await expect(page.getByText("Page 1 of 1")).toBeVisible();
  await expect(page).not.toHaveURL(/[?&]page=/);
  // A filter nothing matches: the table says so, and there is no pager (never "Page 0 of 0").
  await page.getByLabel("Filter by name").fill("No tag is named like this");
  await expect(page.getByText("No tag matches this filter.")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Pages" })).toHaveCount(0);
  await expect(page.getByText(/Page 0/)).toHaveCount(0);
  await screenshot(page, "tags-empty-filter-no-pager");
  await page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Tags" }).click();
  await expect(page).toHaveURL(/\/admin\/tags$/);
  await expect(page.getByLabel("Filter by name")).toHaveValue("");
  await screenshot(page, "tags-linked-list");
});

test("tRPC refusals carry the problem+json the forms show", async ({ page, state }) => {
  await signIn(page, "admin", state.staff);
  const invalid = await page.request.post("/api/trpc/tags.create", { data: { scope: "Nope", name: "" } });
  expect(invalid.status()).toBe(400);
  const problem = (await invalid.json()).error.data.problem;
  expect(problem).toMatchObject({ status: 400, code: 2001, codeName: "license.validation_error" });
  expect(problem.errors.map((e: { path: string }) => e.path).sort()).toEqual(["name", "scope"]);

  const missing = await page.request.post("/api/trpc/tags.merge", {
    data: { id: "00000000-0000-4000-8000-000000000000", intoTagId: "00000000-0000-4000-8000-000000000001" },
  });
  expect(missing.status()).toBe(404);
  expect((await missing.json()).error.data).toMatchObject({
    code: "NOT_FOUND",
    problem: { codeName: "license.not_found", status: 404 },
  });

  await page.context().clearCookies();
  const anonymous = await page.request.get(`/api/trpc/me.get`);
  expect(anonymous.status()).toBe(401);
});

function row(page: import("@playwright/test").Page, name: string) {
  return page
    .locator("table.table tbody tr")
    .filter({ has: page.locator(".tag-name", { hasText: new RegExp(`^${escapeRegExp(name)}(deleted)?$`) }) });
}

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

async function createTag(page: import("@playwright/test").Page, scope: string, name: string, color?: string) {
  await page.getByRole("button", { name: "New tag" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Scope", { exact: true }).selectOption(scope);
  await dialog.getByLabel("Name", { exact: true }).fill(name);
  if (color) await dialog.getByPlaceholder("#rrggbb").fill(color);
  await dialog.getByRole("button", { name: "Create tag" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(row(page, name)).toBeVisible();
}
