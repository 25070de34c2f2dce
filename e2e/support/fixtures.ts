import { test as base, expect, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { e2eState, type E2eState } from "./state.ts";

const screenshotDir = fileURLToPath(new URL("../screenshots", import.meta.url));

/** Playwright's test with the prepared state and the server's base URL. */
export const test = base.extend<{ state: E2eState }>({
  state: async ({}, provide) => provide(e2eState()),
  baseURL: async ({}, provide) => provide(e2eState().baseUrl),
});
export { expect };

/** Saves a full-page screenshot under e2e/screenshots/ (ignored by git). */
export async function screenshot(page: Page, name: string) {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
}

export async function signIn(
  page: Page,
  area: "admin" | "portal",
  credentials: { email: string; password: string; tenant?: string },
) {
  await page.goto(`/${area}/sign-in`);
  await page.getByLabel("Email").fill(credentials.email);
  await page.getByLabel("Password").fill(credentials.password);
  if (credentials.tenant) await page.getByLabel(/Organisation id/).fill(credentials.tenant);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(new RegExp(`/${area}$`));
}
