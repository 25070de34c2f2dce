import { expect, expectSettled, open, screenshot, signIn, test } from "./support/fixtures.ts";

/**
 * docs/security.md "Pages": every page runs under a nonce-based Content-Security-Policy. Chromium
 * reports what the policy blocks on the console and as `securitypolicyviolation` events; the pages
 * that use the most (client navigation, charts, the API docs, the portal) must report nothing.
 */
test("the back office and the portal work under the page policy with no violation", async ({
  page,
  state,
}) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) =>
      console.error(
        `Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`,
      ),
    );
  });

  const response = await open(page, "/admin/sign-in");
  expect(response?.headers()["content-security-policy"]).toContain("'strict-dynamic'");
  await signIn(page, "admin", state.staff);
  for (const path of ["/admin/sessions", "/admin/products", "/admin/api-docs"]) {
    await open(page, path);
    await page.waitForLoadState("networkidle");
  }
  // Client-side navigation loads further scripts through the trusted ones ('strict-dynamic').
  await page
    .getByRole("navigation", { name: "Back office" })
    .getByRole("link", { name: "Tags", exact: true })
    .click();
  await page.waitForURL(/\/admin\/tags$/);
  // The list's tRPC query (connect-src 'self') answers and renders.
  await expectSettled(page);
  await expect(page.getByText("Loading…")).toHaveCount(0);
  await screenshot(page, "csp-back-office");

  await page.context().clearCookies();
  await signIn(page, "portal", state.consumer);
  await page.waitForLoadState("networkidle");
  await screenshot(page, "csp-portal");

  expect(violations).toEqual([]);
});

test("another site cannot frame a page", async ({ page, state }) => {
  await page.setContent(`<iframe id="framed"></iframe>`);
  await page.evaluate(
    (src) =>
      new Promise<void>((resolve) => {
        const frame = document.getElementById("framed") as HTMLIFrameElement;
        frame.addEventListener("load", () => resolve(), { once: true });
        frame.src = src;
      }),
    `${state.baseUrl}/admin/sign-in`,
  );
  // Loaded, but the browser refused to render it there (frame-ancestors 'none'): an error page.
  const child = page.frames().find((frame) => frame !== page.mainFrame())!;
  expect(child.url()).not.toContain("/admin/sign-in");
  await expect(page.frameLocator("#framed").getByLabel("Email")).toHaveCount(0);
});
