import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import type { DomainContext } from "../server/domain/context.ts";
import { createSuite } from "../server/domain/pricing/suites/create-suite.ts";
import { ZSuiteCreateRequest } from "../server/domain/pricing/suites/suite.schemas.ts";
import { createPlanSet } from "../server/domain/pricing/plan-sets/create-plan-set.ts";
import { ZPlanSetCreateRequest } from "../server/domain/pricing/plan-sets/plan-set.schemas.ts";
import { createOffer } from "../server/domain/entitlements/offers/write-offer.ts";
import { ZOfferWriteRequest } from "../server/domain/entitlements/offers/offer.schemas.ts";
import { updateProduct } from "../server/domain/catalog/products/update-product.ts";
import { ZProductUpdateRequest } from "../server/domain/catalog/products/product.schemas.ts";
import { expect, open, screenshot, signIn, test } from "./support/fixtures.ts";
import { productWithTwoFeatures } from "./support/pricing.ts";
import { withTenantDb } from "./support/seed.ts";
import type { E2eState } from "./support/state.ts";

const asSystem = (state: E2eState, db: DomainContext["db"]): DomainContext => ({
  tenantId: state.tenantId,
  db,
  actor: { kind: "system", id: "e2e" },
});

/** Neither the page nor anything on it pushes the window sideways. */
async function expectNoSidewaysScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(client);
}

/** Identifiers a person should never read on a form: zod paths, codeNames, zod's English. */
async function expectNoIdentifiers(page: Page) {
  const text = await page.locator("main").innerText();
  for (const identifier of ["monthlyPrice", "license.", "validation_error", "Too big", "Invalid input"])
    expect(text).not.toContain(identifier);
  expect(text).not.toMatch(/\bplans\.\d/);
}

test("the plan set is a pricing table: plans as columns, values only from the product's features, a plain sentence at an absurd price", async ({
  page,
  state,
}) => {
  const code = `KIT${randomUUID().slice(0, 6).toUpperCase()}`;
  const editor = await productWithTwoFeatures(state, { name: `Kit Editor ${code}`, productCode: `${code}A` });
  const cloud = await productWithTwoFeatures(state, { name: `Kit Cloud ${code}`, productCode: `${code}B` });
  const planSetId = await withTenantDb(state, async (db) => {
    const ctx = asSystem(state, db);
    const suite = await createSuite(
      ctx,
      ZSuiteCreateRequest.parse({
        code: `S-${code}`,
        name: `Kit suite ${code}`,
        memberProductIds: [editor.productId, cloud.productId],
      }),
    );
    const item = (productId: string, featureValues: { featureCode: string; value: string }[] = []) => ({
      productId,
      featureValues,
    });
    const planSet = await createPlanSet(
      ctx,
      ZPlanSetCreateRequest.parse({
        suiteId: suite.id,
        name: `Kit plans ${code}`,
        plans: [
          {
            name: "Starter",
            pricingMode: "Absolute",
            monthlyPrice: 0,
            lineItems: [item(editor.productId, [{ featureCode: editor.seatsCode, value: "1" }])],
          },
          {
            name: "Team",
            pricingMode: "Absolute",
            monthlyPrice: 19,
            currency: "EUR",
            lineItems: [
              item(editor.productId, [{ featureCode: editor.seatsCode, value: "10" }]),
              item(cloud.productId),
            ],
          },
          { name: "Enterprise", pricingMode: "Absolute", monthlyPrice: null, lineItems: [] },
        ],
      }),
    );
    return planSet.id;
  });

  await signIn(page, "admin", state.staff);
  await open(page, `/admin/plan-sets/${planSetId}`);
  await expect(page.getByRole("heading", { name: `Kit plans ${code}`, level: 1 })).toBeVisible();

  // Three plans side by side, in their order, each with its price as a buyer reads it.
  const columns = page.getByTestId("plan-column");
  await expect(columns).toHaveCount(3);
  await expect(columns.nth(0)).toContainText("Starter");
  await expect(columns.nth(0)).toContainText("Free");
  await expect(columns.nth(1)).toContainText("Team");
  await expect(columns.nth(1)).toContainText("EUR 19 /month");
  await expect(columns.nth(2)).toContainText("Enterprise");
  await expect(columns.nth(2)).toContainText("Not priced yet");
  const table = page.getByRole("table", { name: "Plans" });
  // The products are named once their names load; never by id.
  await expect(table).toContainText(`Kit Editor ${code} (${code}A 1)`);
  await expect(table).toContainText(`Kit Cloud ${code} (${code}B 1)`);
  await expect(table).not.toContainText(editor.productId);
  const seats = table.getByRole("row", { name: /Priced seats/ });
  await expect(seats.getByRole("cell")).toHaveText(["1 seats", "10 seats", "—"]);
  await expectNoSidewaysScroll(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, "kit-pricing-table");

  // The customer's view of the same plans: the portal's comparison, nothing to edit, no ids.
  await page.getByRole("button", { name: "Preview as customer" }).click();
  const preview = page.getByRole("region", { name: "Customer preview" });
  const compared = preview.getByRole("table", { name: "Plans as a customer compares them" });
  await expect(compared.getByRole("columnheader")).toHaveText(["Plan", "Starter", "Team", "Enterprise"]);
  await expect(
    compared
      .getByRole("row")
      .filter({ has: page.getByRole("rowheader", { name: "Price", exact: true }) })
      .getByRole("cell"),
  ).toHaveText(["Free", "EUR 19 per month", "Price on request"]);
  await expect(compared.getByRole("row", { name: /Priced seats/ }).getByRole("cell")).toHaveText([
    "1 seats",
    "10 seats",
    "—",
  ]);
  for (const role of ["textbox", "spinbutton", "combobox", "button", "checkbox"] as const)
    await expect(preview.getByRole(role)).toHaveCount(0);
  await expect(page.getByRole("table", { name: "Plans", exact: true })).toBeHidden();
  for (const id of [editor.productId, cloud.productId, editor.seatsCode])
    await expect(preview).not.toContainText(id);
  await screenshot(page, "kit-plan-set-customer-preview");
  await page.getByRole("button", { name: "Edit plans" }).click();
  await expect(preview).toHaveCount(0);
  await expect(table).toBeVisible();

  // Team's dialog: a value for the cloud product offers only the cloud product's own features.
  await page.getByRole("button", { name: "Edit Team" }).click();
  const dialog = page.getByRole("dialog", { name: "Plan Team" });
  const cloudItem = dialog.getByTestId("line-item").filter({ hasText: `Kit Cloud ${code}` });
  await cloudItem.getByRole("button", { name: "Add feature value" }).click();
  const row = cloudItem.getByTestId("feature-value-row");
  await expect(row.getByLabel("Feature", { exact: true }).locator("option")).toHaveText([
    `Priced seats (${cloud.seatsCode})`,
    `Priced API calls (${cloud.callsCode})`,
  ]);
  await row.getByLabel("Value of Priced seats").fill("25");

  // An absurd price: the sentence sits next to the field, and Done keeps the dialog open.
  await dialog.getByLabel("Monthly price").fill("1000000000000000000000");
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog.getByTestId("error-plans.1.monthlyPrice")).toHaveText(
    "Monthly price must be less than 1,000,000,000,000,000,000.",
  );
  await expect(dialog.getByLabel("Monthly price")).toHaveAttribute("aria-invalid", "true");
  await expectNoIdentifiers(page);
  await expect(dialog).not.toContainText("monthlyPrice");
  await expect(dialog).not.toContainText("license.");
  await expectNoSidewaysScroll(page);
  await screenshot(page, "kit-plan-dialog-error");

  await dialog.getByLabel("Monthly price").fill("29");
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(columns.nth(1)).toContainText("EUR 29 /month");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText("Saved.");

  // Saved: a fresh load shows the same table.
  await open(page, `/admin/plan-sets/${planSetId}`);
  await expect(page.getByTestId("plan-column").nth(1)).toContainText("EUR 29 /month");
  const cloudSeats = page
    .getByRole("table", { name: "Plans" })
    .getByRole("row", { name: /Priced seats/ })
    .nth(1);
  await expect(cloudSeats.getByRole("cell")).toHaveText(["—", "25 seats", "—"]);
});

test("the New plan set dialog says in plain words what is missing before sending", async ({
  page,
  state,
}) => {
  await signIn(page, "admin", state.staff);
  await open(page, "/admin/plan-sets");
  await page.getByRole("button", { name: "New plan set" }).click();
  const dialog = page.getByRole("dialog", { name: "New plan set" });
  await dialog.getByLabel("Plan set name").fill("   ");
  await dialog.getByRole("button", { name: "Create draft" }).click();
  const summary = dialog.getByRole("alert");
  await expect(summary).toContainText("Some values need correcting. Check the fields below.");
  await expect(summary).toContainText("Choose product from the list.");
  await expect(summary).toContainText("Enter plan set name.");
  await expect(dialog.getByLabel("Product", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByLabel("Product", { exact: true })).toHaveAccessibleDescription(
    /^Choose product from the list\./,
  );
  await expect(dialog.getByLabel("Plan set name")).toHaveAccessibleDescription(/^Enter plan set name\./);
  for (const identifier of ["productId", "suiteId", "uuid", "Invalid", "needs a name"])
    await expect(dialog).not.toContainText(identifier);
  await expectNoSidewaysScroll(page);
  await screenshot(page, "kit-plan-set-create-error");

  // Another target is another list: the choice starts again, under the suite's label.
  await dialog.getByLabel("Price").selectOption({ label: "A suite of products" });
  await expect(dialog.getByLabel("Suite", { exact: true })).toHaveValue("");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
});

test("a rating campaign picks its offers by name", async ({ page, state }) => {
  const code = `RC${randomUUID().slice(0, 6).toUpperCase()}`;
  const priced = await productWithTwoFeatures(state, { name: `Rated ${code}`, productCode: code });
  await withTenantDb(state, async (db) => {
    const ctx = asSystem(state, db);
    await createOffer(ctx, ZOfferWriteRequest.parse({ name: `Campaign offer ${code} Gold` }));
    await createOffer(ctx, ZOfferWriteRequest.parse({ name: `Campaign offer ${code} Silver` }));
  });
  await signIn(page, "admin", state.staff);
  const nav = page.getByRole("navigation", { name: "Back office" });
  await nav.getByRole("link", { name: "Rating campaigns", exact: true }).click();
  await page.getByRole("button", { name: "New campaign" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name", { exact: true }).fill(`Campaign ${code}`);
  await dialog.getByRole("button", { name: "Add target" }).click();
  await dialog.getByLabel("Target 1 feature").selectOption({ label: `Priced seats (${priced.seatsCode})` });

  // No id to type: the offer is searched by name and chosen from the matches.
  await dialog.getByLabel("Add an offer").fill(`${code} Gold`);
  const matches = dialog.getByRole("listbox", { name: "Add an offer matches" });
  await expect(matches.getByRole("option")).toHaveCount(1);
  await matches.getByRole("option", { name: /Campaign offer .* Gold \(version 1\)/ }).click();
  const chosen = dialog.getByTestId("campaign-offers").locator("li");
  await expect(chosen).toHaveCount(1);
  await expect(chosen).toContainText(`Campaign offer ${code} Gold (version 1)`);
  await expect(dialog.getByLabel("Add an offer")).toHaveValue("");
  await expect(dialog).not.toContainText("Offer ids");
  await screenshot(page, "kit-campaign-offer-picker");
  await dialog.getByRole("button", { name: "Create campaign" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // Editing shows the offer by name.
  const row = page.locator("table.table tbody tr").filter({ hasText: `Campaign ${code}` });
  await row.getByRole("button", { name: "Edit" }).click();
  await expect(page.getByRole("dialog").getByTestId("campaign-offers")).toContainText(
    `Campaign offer ${code} Gold (version 1)`,
  );
});

test("a refusal from the server reads as a plain sentence on a moved form", async ({ page, state }) => {
  const code = `PR${randomUUID().slice(0, 6).toUpperCase()}`;
  const product = await productWithTwoFeatures(state, { name: `Property ${code}`, productCode: code });
  await signIn(page, "admin", state.staff);
  await open(page, `/admin/products/${product.productId}`);
  await page.getByRole("button", { name: "Add property" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name", { exact: true }).fill("Support tier");
  await dialog.getByLabel("Value", { exact: true }).fill("gold");
  await dialog.getByRole("button", { name: "Add metadata" }).click();
  await dialog.getByLabel("Metadata 1 key").fill("source");
  await dialog.getByLabel("Metadata 1 value").fill("crm");

  // Someone else changes the product meanwhile: the server refuses the stale revision.
  await withTenantDb(state, (db) =>
    updateProduct(
      asSystem(state, db),
      product.productId,
      ZProductUpdateRequest.parse({ description: "Changed elsewhere" }),
    ),
  );
  await dialog.getByRole("button", { name: "Save property" }).click();
  const problem = dialog.getByTestId("problem");
  await expect(problem).toHaveAttribute("data-code", "concurrency.revision_mismatch");
  await expect(problem).toContainText(
    "Someone else changed this while you were editing. The latest version is loaded; make your change again.",
  );
  await expect(problem).not.toContainText("concurrency");
  await expect(problem).not.toContainText("revisionNumber");
  await screenshot(page, "kit-property-server-problem");
  // The product is loaded again behind the dialog: saving once more goes through.
  await dialog.getByRole("button", { name: "Save property" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByRole("table", { name: "Properties" })).toContainText("Support tier");
  await expect(page.getByRole("table", { name: "Properties" })).toContainText("source=crm");
});

test("removing a customer organization asks first and says what happens; Cancel keeps it", async ({
  page,
  state,
}) => {
  const name = `Removable Org ${randomUUID().slice(0, 6)}`;
  await signIn(page, "admin", state.staff);
  await open(page, "/admin/customers");
  const panel = page.getByRole("region", { name: "Organizations" });
  await panel.getByLabel("Organization name").fill(name);
  await panel.getByRole("button", { name: "Add organization" }).click();
  await panel.getByLabel("Filter organizations").fill(name);
  const row = panel.getByRole("row").filter({ hasText: name });
  await expect(row).toHaveCount(1);

  await row.getByRole("button", { name: `Remove ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Remove ${name}?` });
  await expect(dialog).toContainText("It is deleted for good.");
  await expect(dialog).toContainText("An organization that still has licenses or members is not removed");
  await screenshot(page, "kit-remove-organization-confirm");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row).toHaveCount(1);

  await row.getByRole("button", { name: `Remove ${name}` }).click();
  await page
    .getByRole("dialog", { name: `Remove ${name}?` })
    .getByRole("button", { name: `Remove ${name}` })
    .click();
  await expect(panel.getByRole("row").filter({ hasText: name })).toHaveCount(0);
});
