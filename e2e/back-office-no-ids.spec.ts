import type { Page } from "@playwright/test";
import { expect, open, signIn, test } from "./support/fixtures.ts";
import { fleetLicense } from "./support/fleet.ts";

test.use({ viewport: { width: 1440, height: 900 } });

type Finding = { page: string; what: string };

/**
 * Inputs whose label or placeholder asks for an id, and table cells that show a UUID outside a
 * link, on the page shown now. Staff pick entities by name (docs/decisions.md "Pickers, not ids").
 */
async function idFindings(page: Page, name: string): Promise<Finding[]> {
  const found = await page.locator("main#main").evaluate((main) => {
    const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
    const asksForId = /\b(uuid|id|ids)\b/i;
    const out: string[] = [];
    const labelOf = (el: Element) => {
      const parts = [el.getAttribute("aria-label") ?? "", el.getAttribute("placeholder") ?? ""];
      for (const ref of (el.getAttribute("aria-labelledby") ?? "").split(/\s+/).filter(Boolean)) {
        parts.push(document.getElementById(ref)?.textContent ?? "");
      }
      const id = el.getAttribute("id");
      if (id)
        for (const l of document.querySelectorAll(`label[for="${CSS.escape(id)}"]`))
          parts.push(l.textContent ?? "");
      const wrapping = el.closest("label");
      if (wrapping) parts.push(wrapping.textContent ?? "");
      return parts.join(" | ");
    };
    for (const el of main.querySelectorAll("input:not([type=hidden]), select, textarea")) {
      const label = labelOf(el);
      if (asksForId.test(label)) out.push(`input asks for an id: "${label.trim()}"`);
    }
    for (const cell of main.querySelectorAll("td")) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (uuid.test(node.textContent ?? "") && !node.parentElement?.closest("a")) {
          out.push(`bare UUID in a cell: "${cell.textContent?.trim().slice(0, 80)}"`);
          break;
        }
      }
    }
    return out;
  });
  return found.map((what) => ({ page: name, what }));
}

/** Every link of the back office's navigation, as [label, href], in order. */
async function navLinks(page: Page): Promise<[string, string][]> {
  return page
    .getByRole("navigation", { name: "Back office" })
    .locator("a[href]")
    .evaluateAll((links) =>
      links.map((a) => [a.textContent?.trim() ?? "", a.getAttribute("href") ?? ""] as [string, string]),
    );
}

/** The first link of the page's tables to a detail page (`/admin/<area>/<uuid>`), if any. */
async function firstDetailLink(page: Page): Promise<string | null> {
  const hrefs = await page
    .locator("main#main td a[href^='/admin/']")
    .evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
  return hrefs.find((h) => /\/admin\/[a-z-]+(\/[a-z-]+)?\/[0-9a-f-]{36}$/.test(h)) ?? null;
}

test("no back-office page asks for an id or shows a bare UUID: list pages and one detail page of each", async ({
  page,
  state,
}) => {
  test.setTimeout(300_000);
  // Rows of every kind for the lists to link to, whichever specs ran before in this worker's world.
  await fleetLicense(state, { devices: ["walk-laptop"], forConsumer: true });
  await fleetLicense(state, { organization: `Ids walk organisation ${Date.now()}` });
  await signIn(page, "admin", state.staff);
  const links = await navLinks(page);
  expect(links.length).toBeGreaterThan(10);
  const visited: string[] = [];
  const findings: Finding[] = [];
  const visit = async (label: string, href: string) => {
    if (visited.includes(href)) return;
    await open(page, href);
    await expect(page.locator("main#main")).toBeVisible();
    await page.waitForLoadState("networkidle");
    await expect(page.locator('.table-wrap[aria-busy="true"]')).toHaveCount(0);
    visited.push(href);
    findings.push(...(await idFindings(page, `${label} (${href})`)));
  };
  for (const [label, href] of [["Dashboard", "/admin"] as [string, string], ...links]) {
    await visit(label, href);
    const detail = await firstDetailLink(page);
    if (detail) await visit(`${label} detail`, detail);
  }
  console.log(`[ids] back office pages visited (${visited.length}): ${visited.join(", ")}`);
  // The walk reached detail pages as well as lists.
  expect(visited.filter((h) => /[0-9a-f-]{36}$/.test(h)).length).toBeGreaterThan(3);
  expect(findings).toEqual([]);
});
