import { test as base, expect, type Locator, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { e2eState, type E2eState } from "./state.ts";

const screenshotDir = fileURLToPath(new URL("../screenshots", import.meta.url));

/** Playwright's test with its worker's prepared world (support/state.ts) and the server's base URL. */
export const test = base.extend<{ state: E2eState }>({
  state: async ({}, provide, testInfo) => provide(e2eState(testInfo.parallelIndex)),
  baseURL: async ({}, provide, testInfo) => provide(e2eState(testInfo.parallelIndex).baseUrl),
});
export { expect };

/** Saves a full-page screenshot under e2e/screenshots/ (ignored by git). */
export async function screenshot(page: Page, name: string) {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
}

/**
 * Waits until React has hydrated the page loaded last (components/shell/hydration-mark.tsx): a
 * click or a typed value before that can be lost. After every `page.goto` or `page.reload` that is
 * followed by an action.
 */
export async function hydrated(page: Page) {
  await expect(page.locator("html[data-hydrated]")).toHaveCount(1);
}

/** `page.goto`, then waits for hydration. */
export async function open(page: Page, url: string) {
  const response = await page.goto(url);
  await hydrated(page);
  return response;
}

export async function signIn(
  page: Page,
  area: "admin" | "portal",
  credentials: { email: string; password: string; tenant?: string },
) {
  await open(page, `/${area}/sign-in`);
  await page.getByLabel("Email").fill(credentials.email);
  await page.getByLabel("Password").fill(credentials.password);
  if (credentials.tenant) await page.getByLabel(/Organisation id/).fill(credentials.tenant);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(new RegExp(`/${area}$`));
  // The home page is a full load: a menu click before hydration would be a full load again, and
  // a click on the page it opens could come before that page hydrates.
  await hydrated(page);
}

/**
 * Waits until the lists (tables) of a page, or of a part of one, show the rows of the filters,
 * sort and page their controls show: not loading, no typed filter pending, no previous query's
 * rows kept on screen (components/ui/list-controls.tsx marks such a list `aria-busy`). Before
 * asserting that a row is absent (an absent row proves nothing while the list is loading) or
 * acting on the rows.
 */
export async function expectSettled(scope: Page | Locator) {
  await expect(scope.locator(".table-wrap").first()).toBeVisible();
  await expect(scope.locator('.table-wrap[aria-busy="true"]')).toHaveCount(0);
}
