import type { Page } from "@playwright/test";
import { expect, expectSettled, screenshot, signIn, test } from "./support/fixtures.ts";
import { productWithTwoFeatures } from "./support/pricing.ts";

test("staff price a product (implicit suite), publish it, edit the published revision into a draft copy, and create and archive an add-on", async ({
  page,
  state,
}) => {
  const priced = await productWithTwoFeatures(state, {
    name: "E2E Priced Studio",
    productCode: "E2E_PRICED",
  });
  await signIn(page, "admin", state.staff);
  const nav = page.getByRole("navigation", { name: "Back office" });

  // Price the product on its own: the plan set goes to an implicit suite created behind it.
  await nav.getByRole("link", { name: "Plan sets", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Plan sets", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "New plan set" }).click();
  let dialog = page.getByRole("dialog");
  await dialog.getByLabel("Price").selectOption("product");
  await dialog
    .getByLabel("Product", { exact: true })
    .selectOption({ label: "E2E Priced Studio (E2E_PRICED 1)" });
  await dialog.getByLabel("Plan set name").fill("Studio plans");
  await dialog.getByRole("button", { name: "Create draft" }).click();
  await expect(page.getByRole("heading", { name: "Studio plans", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 }).getByTestId("status-badge")).toHaveText("Draft");
  await expect(page.getByText("(implicit suite)")).toBeVisible();

  // The plans are a pricing table; a plan is edited in its dialog. A paid price needs a currency
  // (the shared schema says so before the server does), said next to the field.
  await expect(page.getByTestId("plan-column")).toHaveCount(1);
  await expect(page.getByTestId("plan-column").nth(0)).toContainText("Standard");
  await page.getByRole("button", { name: "Edit Standard" }).click();
  const plan = page.getByRole("dialog", { name: "Plan Standard" });
  await plan.getByLabel("Monthly price").fill("19");
  await plan.getByRole("button", { name: "Done" }).click();
  await expect(plan.getByTestId("error-plans.0.currency")).toHaveText(
    "Currency does not fit with the other values. Check it against the hint below the field.",
  );
  await plan.getByLabel("Currency").fill("eur");

  // Feature values for the product's two features: seats, and metered API calls with a tier table.
  const lineItem = plan.getByTestId("line-item");
  await expect(lineItem).toContainText("E2E Priced Studio");
  const rows = lineItem.getByTestId("feature-value-row");
  await lineItem.getByRole("button", { name: "Add feature value" }).click();
  await rows
    .nth(0)
    .getByLabel("Feature", { exact: true })
    .selectOption({ label: `Priced seats (${priced.seatsCode})` });
  await rows.nth(0).getByLabel("Value of Priced seats").fill("5");
  await lineItem.getByRole("button", { name: "Add feature value" }).click();
  await rows
    .nth(1)
    .getByLabel("Feature", { exact: true })
    .selectOption({ label: `Priced API calls (${priced.callsCode})` });
  await rows.nth(1).getByLabel("Value of Priced API calls").fill("1000");
  // Both of the product's features have a value now: nothing more to add.
  await expect(lineItem.getByRole("button", { name: "Add feature value" })).toBeDisabled();
  await rows.nth(1).getByRole("button", { name: "Tiers (0)" }).click();
  const tiers = lineItem.getByTestId("tier-table");
  await tiers.getByRole("button", { name: "Add tier" }).click();
  await tiers.getByLabel("Tier 1 name").fill("Included");
  await tiers.getByLabel("Tier 1 end").fill("1000");
  await tiers.getByRole("button", { name: "Add tier" }).click();
  await expect(tiers.getByLabel("Tier 2 start")).toHaveValue("1000");
  await tiers.getByLabel("Tier 2 name").fill("Overage");
  await tiers.getByLabel("Tier 2 credits per unit").fill("0.5");
  await tiers.getByLabel("Tier 2 policy").selectOption("Notify");
  await plan.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  const column = page.getByTestId("plan-column").nth(0);
  await expect(column).toContainText("EUR 19 /month");
  const table = page.getByRole("table", { name: "Plans" });
  await expect(table.getByRole("row", { name: /Priced seats/ })).toContainText("5 seats");
  await expect(table.getByRole("row", { name: /Priced API calls/ })).toContainText("1000 calls");
  await expect(table.getByRole("row", { name: /Priced API calls/ })).toContainText("2 tiers");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText("Saved.");
  await shot(page, "pricing-plan-editor");
  await page.getByRole("button", { name: "Edit Standard" }).click();
  await expect(page.getByRole("dialog", { name: "Plan Standard" }).getByLabel("Currency")).toHaveValue("EUR");
  await page.getByRole("dialog", { name: "Plan Standard" }).getByRole("button", { name: "Cancel" }).click();

  // Publish, with confirmation.
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("This becomes the suite's published plan set.");
  await dialog.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1 }).getByTestId("status-badge")).toHaveText("Published");
  await expect(page.getByTestId("published-banner")).toContainText(
    "Saving an edit does not change this revision",
  );
  await shot(page, "pricing-published");

  // Edit the published revision: the edit lands on a draft copy, and the screen says so.
  await page.getByLabel("Name", { exact: true }).fill("Studio plans 2027");
  await page.getByRole("button", { name: "Edit Standard" }).click();
  await page.getByRole("dialog", { name: "Plan Standard" }).getByLabel("Monthly price").fill("24");
  await page.getByRole("dialog", { name: "Plan Standard" }).getByRole("button", { name: "Done" }).click();
  await page.getByRole("button", { name: "Save as draft copy" }).click();
  await expect(page).toHaveURL(/editedFrom=/);
  await expect(page.getByRole("heading", { name: "Studio plans 2027", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 }).getByTestId("status-badge")).toHaveText("Draft");
  const banner = page.getByTestId("draft-copy-banner");
  await expect(banner).toContainText("Saved as a draft copy.");
  await expect(banner).toContainText("The published revision is unchanged.");
  const timeline = page.getByTestId("revision-timeline");
  await expect(timeline.locator("li")).toHaveCount(2);
  await expect(timeline.locator("li").nth(0)).toContainText("Revision 2");
  await expect(timeline.locator("li").nth(0)).toContainText("Draft");
  await expect(timeline.locator("li").nth(1)).toContainText("Revision 1");
  await expect(timeline.locator("li").nth(1)).toContainText("Published");
  await expect(page.getByTestId("plan-column").nth(0)).toContainText("EUR 24 /month");
  await shot(page, "pricing-draft-copy");

  // The published revision still has its own name and price.
  await banner.getByRole("link", { name: "View the published revision" }).click();
  await expect(page.getByRole("heading", { name: "Studio plans", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 }).getByTestId("status-badge")).toHaveText("Published");
  await expect(page.getByTestId("plan-column").nth(0)).toContainText("EUR 19 /month");
  await expect(
    page.getByTestId("published-banner").getByRole("link", { name: "Open draft revision 2" }),
  ).toBeVisible();

  // The implicit suite is listed only on request.
  await nav.getByRole("link", { name: "Suites", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Suites", level: 1 })).toBeVisible();
  const suiteRow = page.locator("table.table tbody tr").filter({ hasText: "E2E Priced Studio" });
  // Absent from the loaded list, not from one still loading.
  await expectSettled(page);
  await expect(suiteRow).toHaveCount(0);
  await page.getByLabel("Show implicit suites").check();
  await expect(suiteRow).toHaveCount(1);
  await expect(suiteRow).toContainText("implicit");
  await shot(page, "pricing-suites");

  // An add-on of that suite: a value added to the Standard plan's seats, then archived.
  await nav.getByRole("link", { name: "Add-ons", exact: true }).click();
  await page.getByRole("button", { name: "New add-on" }).click();
  dialog = page.getByRole("dialog");
  const suiteOption = dialog.getByLabel("Suite").locator("option").filter({ hasText: "E2E Priced Studio" });
  await dialog.getByLabel("Suite").selectOption((await suiteOption.getAttribute("value"))!);
  await dialog.getByLabel("Name", { exact: true }).fill("Extra seats");
  await dialog.getByLabel("Code").fill("E2E-EXTRA-SEATS");
  await dialog.getByRole("button", { name: "Create add-on" }).click();
  await expect(page.getByRole("heading", { name: "Extra seats", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 }).getByTestId("status-badge")).toHaveText("Draft");
  await page.getByRole("button", { name: "Add feature value" }).click();
  const valueRow = page.getByTestId("add-on-value-row");
  await valueRow
    .getByLabel("Feature", { exact: true })
    .selectOption({ label: `Priced seats (${priced.seatsCode})` });
  await valueRow.getByLabel("Operation").selectOption("Add");
  await valueRow.getByLabel("Value of Priced seats").fill("-1");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("problem")).toHaveAttribute("data-code", "license.validation_error");
  await valueRow.getByLabel("Value of Priced seats").fill("5");
  // Plan targets are the suite's plans, picked by name.
  const targets = valueRow.getByRole("group", { name: "Plan targets" });
  await expect(targets.getByRole("checkbox")).toHaveCount(1);
  await targets.getByLabel("Standard").check();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("add-on-features")).toContainText(priced.seatsCode);
  await expect(
    page.getByTestId("add-on-value-row").getByRole("group", { name: "Plan targets" }).getByLabel("Standard"),
  ).toBeChecked();
  await shot(page, "pricing-add-on");

  // Delete and archive show what refers to the add-on first; a Draft nobody holds could be deleted.
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("delete-references")).toContainText(
    "Referenced by 0 entitlements and 0 offers. No grant exists",
  );
  await expect(dialog.getByRole("button", { name: "Delete add-on" })).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("button", { name: "Archive", exact: true }).click();
  dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("archive-references")).toContainText("Held by 0 entitlements and 0 offers");
  await dialog.getByRole("button", { name: "Archive add-on" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 1 }).getByTestId("status-badge")).toHaveText("Archived");
  await expect(page.getByTestId("archived-banner")).toContainText("read-only and cannot be deleted");
  await expect(page.getByRole("button", { name: "Delete", exact: true })).toHaveCount(0);
  await expect(
    page.getByTestId("add-on-value-row").getByRole("group", { name: "Plan targets" }).getByLabel("Standard"),
  ).toBeDisabled();
  await shot(page, "pricing-add-on-archived");

  await nav.getByRole("link", { name: "Add-ons", exact: true }).click();
  await expect(page.locator("table.table tbody tr").filter({ hasText: "Extra seats" })).toContainText(
    "Archived",
  );
  await shot(page, "pricing-add-ons");
});

/** A full-page screenshot taken from the top, so the sticky top bar stays at the top. */
async function shot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, name);
}

test("staff build a suite of two products in sell order and run a rating campaign", async ({
  page,
  state,
}) => {
  const first = await productWithTwoFeatures(state, { name: "E2E Suite Editor", productCode: "E2E_SUITE_A" });
  await productWithTwoFeatures(state, { name: "E2E Suite Cloud", productCode: "E2E_SUITE_B" });
  await signIn(page, "admin", state.staff);
  const nav = page.getByRole("navigation", { name: "Back office" });

  await nav.getByRole("link", { name: "Suites", exact: true }).click();
  await page.getByRole("button", { name: "New suite" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name", { exact: true }).fill("E2E Office");
  await dialog.getByLabel("Code").fill("E2E-OFFICE");
  for (const name of ["E2E Suite Editor", "E2E Suite Cloud"]) {
    await dialog.getByLabel("Search products").fill("E2E Suite");
    await dialog
      .getByLabel("Product", { exact: true })
      .selectOption({ label: `${name} (${name.endsWith("Editor") ? "E2E_SUITE_A" : "E2E_SUITE_B"} 1)` });
    await dialog.getByRole("button", { name: "Add", exact: true }).click();
  }
  await expect(dialog.getByTestId("new-suite-members").locator("li")).toHaveCount(2);
  await dialog.getByRole("button", { name: "Create suite" }).click();
  await expect(page.getByRole("heading", { name: "E2E Office", level: 1 })).toBeVisible();
  const members = page.getByTestId("suite-member");
  await expect(members.nth(0)).toContainText("E2E Suite Editor");
  await expect(members.nth(1)).toContainText("E2E Suite Cloud");

  // Sell order: the cloud product moves up.
  await page.getByRole("button", { name: "Move E2E Suite Cloud up" }).click();
  await expect(members.nth(0)).toContainText("E2E Suite Cloud");
  await expect(members.nth(0).locator(".member-order")).toHaveText("1");
  await expect(members.nth(1)).toContainText("E2E Suite Editor");
  await shot(page, "pricing-suite");

  // A running rating campaign about one of the features.
  await nav.getByRole("link", { name: "Rating campaigns", exact: true }).click();
  await page.getByRole("button", { name: "New campaign" }).click();
  const form = page.getByRole("dialog");
  await form.getByLabel("Name", { exact: true }).fill("E2E feedback");
  await form.getByLabel("Ends").fill("2099-12-31T12:00");
  await form.getByRole("button", { name: "Add target" }).click();
  await form.getByLabel("Target 1 feature").selectOption({ label: `Priced seats (${first.seatsCode})` });
  await form.getByLabel("Target 1 question").fill("Do you have enough seats?");
  await form.getByLabel("Target 1 priority").fill("1");
  await form.getByRole("button", { name: "Create campaign" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  const row = page.locator("table.table tbody tr").filter({ hasText: "E2E feedback" });
  await expect(row.getByTestId("running-badge")).toHaveText("running");
  await expect(row).toContainText("Priced seats #1");
  await shot(page, "pricing-rating-campaigns");
});
