import type { Locator, Page } from "@playwright/test";
import { expect, screenshot, signIn, test } from "./support/fixtures.ts";

test.use({ viewport: { width: 1440, height: 900 } });

/** Neither the dialog nor its body scrolls sideways. */
async function expectNoHorizontalScroll(dialog: Locator) {
  const overflow = await dialog.evaluate((el) =>
    [el, ...el.querySelectorAll(".dialog-body, .dialog-head, form")].map((node) => ({
      scroll: node.scrollWidth,
      client: node.clientWidth,
    })),
  );
  for (const box of overflow) expect(box.scroll).toBeLessThanOrEqual(box.client);
  const rect = await dialog.boundingBox();
  expect(rect!.x).toBeGreaterThanOrEqual(0);
  expect(rect!.x + rect!.width).toBeLessThanOrEqual(1440);
}

async function openProducts(page: Page) {
  const nav = page.getByRole("navigation", { name: "Back office" });
  await nav.getByRole("link", { name: "Products", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Products", level: 1 })).toBeVisible();
}

test("the product form shows its limits up front and refuses in plain sentences next to the fields", async ({
  page,
  state,
}) => {
  await signIn(page, "admin", state.staff);
  await openProducts(page);
  await page.getByRole("button", { name: "New product" }).click();
  const dialog = page.getByRole("dialog");
  // Name and External id both allow 200 characters: the name's hint shows its counter.
  await expect(dialog.locator("#product-form-name-hint")).toContainText("0 / 200 characters");
  await expect(dialog.getByText("0 / 10,000 characters")).toBeVisible();

  // Too long a name: the counter turns, and submit shows the sentence at the field, no zod English.
  await dialog.getByLabel("Name", { exact: true }).fill("N".repeat(201));
  await expect(dialog.getByText("201 / 200 characters")).toBeVisible();
  await dialog.getByRole("button", { name: "Create product" }).click();
  await expect(dialog.getByTestId("error-name")).toHaveText("Name must be 200 characters or fewer.");
  await expect(dialog.getByTestId("error-productCode")).toHaveText("Enter product code.");
  await expect(dialog.getByTestId("problem")).toContainText("Some values need correcting.");
  await expect(dialog).not.toContainText("Too big");
  await expect(dialog).not.toContainText("license.validation_error");
  await screenshot(page, "quality-product-form-errors");

  // A 200-character name and a 5,000-character description are accepted and wrap.
  const longName = `Long ${"name ".repeat(39)}end`.slice(0, 200);
  await dialog.getByLabel("Name", { exact: true }).fill(longName);
  await dialog.getByLabel("Product code").fill("LONG-NAME");
  await dialog.getByLabel("Description").fill("d".repeat(5_000));
  await expectNoHorizontalScroll(dialog);
  await screenshot(page, "quality-product-form-long");
  await dialog.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.waitForURL(/\/admin\/products\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Long name");

  // The server's refusal (a taken code) shows as the catalogue's sentence.
  await openProducts(page);
  await page.getByRole("button", { name: "New product" }).click();
  await page.getByRole("dialog").getByLabel("Name", { exact: true }).fill("Duplicate");
  await page.getByRole("dialog").getByLabel("Product code").fill("LONG-NAME");
  await page.getByRole("dialog").getByRole("button", { name: "Create product" }).click();
  await expect(page.getByRole("dialog").getByTestId("problem")).toContainText(
    "Another product already uses this code and version. Change the code or the version.",
  );
  await expect(page.getByRole("dialog")).not.toContainText("product.code_taken");
});

test("the New offer dialog with a 200-character product name: no sideways scroll; absurd seats and negative validity get plain sentences at their fields", async ({
  page,
  state,
}) => {
  await signIn(page, "admin", state.staff);
  const nav = page.getByRole("navigation", { name: "Back office" });
  await nav.getByRole("link", { name: "Offers", exact: true }).click();
  await page.getByRole("button", { name: "New offer" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name", { exact: true }).fill(`Offer ${"x".repeat(195)}`);
  await dialog.getByLabel("Seats").fill("5000000");
  await dialog.getByLabel("Validity (days)").fill("-3");
  await dialog.getByRole("button", { name: /Create/ }).click();

  const fieldOf = (label: string) =>
    dialog.getByLabel(label).locator("xpath=ancestor::div[contains(concat(' ', @class, ' '), ' field ')][1]");
  await expect(fieldOf("Seats")).toContainText(
    /seats must be (between 1 and 1,000,000|1,000,000 or less)\./i,
  );
  await expect(fieldOf("Validity (days)")).toContainText(
    /validity.* must be (between 1 and 36,500|1 or more)\./i,
  );
  for (const raw of ["Too big", "Too small", "numberOfSeats", "validityDays", "license.validation_error"])
    await expect(dialog).not.toContainText(raw);
  await expectNoHorizontalScroll(dialog);
  await screenshot(page, "quality-offer-dialog-errors");
});
