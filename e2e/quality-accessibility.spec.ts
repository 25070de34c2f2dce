import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, hydrated, open, screenshot, signIn, test } from "./support/fixtures.ts";

test.use({ viewport: { width: 1440, height: 900 } });

type Finding = { page: string; id: string; impact: string; help: string; targets: string[] };

/** axe-core's serious and critical violations on the page shown now (WCAG 2.x A and AA rules). */
async function scan(page: Page, name: string): Promise<Finding[]> {
  const result = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      page: name,
      id: v.id,
      impact: v.impact!,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
    }));
}

/** Every link of a navigation landmark, as [label, href], in order. */
async function navLinks(page: Page, navName: string): Promise<[string, string][]> {
  const nav = page.getByRole("navigation", { name: navName });
  return nav
    .locator("a[href]")
    .evaluateAll((links) =>
      links.map((a) => [a.textContent?.trim() ?? "", a.getAttribute("href") ?? ""] as [string, string]),
    );
}

test("every back-office page reached from the navigation has no serious or critical axe violation", async ({
  page,
  state,
}) => {
  test.setTimeout(300_000);
  await signIn(page, "admin", state.staff);
  const links = await navLinks(page, "Back office");
  expect(links.length).toBeGreaterThan(10);
  const visited: string[] = [];
  const findings: Finding[] = [];
  for (const [label, href] of [["Dashboard", "/admin"] as [string, string], ...links]) {
    if (visited.includes(href)) continue;
    await open(page, href);
    await expect(page.locator("main#main")).toBeVisible();
    await page.waitForLoadState("networkidle");
    visited.push(href);
    findings.push(...(await scan(page, `${label} (${href})`)));
  }
  // The app shell's 404 keeps the navigation and offers a way back.
  await open(page, "/admin/no-such-page");
  await expect(page.getByRole("heading", { name: "We could not find that page" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Back office" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to the dashboard" })).toBeVisible();
  await screenshot(page, "quality-admin-404");
  visited.push("/admin/no-such-page");
  findings.push(...(await scan(page, "404 (/admin/no-such-page)")));

  test.info().annotations.push({ type: "pages visited", description: visited.join(", ") });
  console.log(`[axe] back office pages visited (${visited.length}): ${visited.join(", ")}`);
  expect(findings).toEqual([]);
});

test("every portal page reached from the portal has no serious or critical axe violation; 404 keeps the shell", async ({
  page,
  state,
}) => {
  test.setTimeout(180_000);
  await signIn(page, "portal", state.consumer);
  const hrefs = await page
    .locator('main a[href^="/portal"], header a[href^="/portal"], nav a[href^="/portal"]')
    .evaluateAll((links) => [...new Set(links.map((a) => a.getAttribute("href") ?? ""))]);
  const visited: string[] = [];
  const findings: Finding[] = [];
  for (const href of ["/portal", ...hrefs]) {
    if (visited.includes(href) || href.includes("sign-in")) continue;
    await open(page, href);
    await page.waitForLoadState("networkidle");
    visited.push(href);
    findings.push(...(await scan(page, href)));
  }
  await open(page, "/portal/no-such-page");
  await expect(page.getByRole("heading", { name: "We could not find that page" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to your licenses" })).toBeVisible();
  await screenshot(page, "quality-portal-404");
  visited.push("/portal/no-such-page");
  findings.push(...(await scan(page, "/portal/no-such-page")));
  test.info().annotations.push({ type: "pages visited", description: visited.join(", ") });
  console.log(`[axe] portal pages visited (${visited.length}): ${visited.join(", ")}`);
  expect(findings).toEqual([]);
});

test("the skip link is the first stop of the keyboard and moves focus to the content", async ({
  page,
  state,
}) => {
  await signIn(page, "admin", state.staff);
  await hydrated(page);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
  await expect(page.locator("main#main")).toBeFocused();
});
