import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { createDb } from "../server/db/client.ts";
import { systemContext } from "../server/domain/context.ts";
import { createTenant } from "../server/domain/cross-tenant.ts";
import {
  insertLicense,
  insertSessions,
  seedRevenueData,
  seedValueData,
} from "../tests/helpers/report-fixtures.ts";
import { expect, screenshot, signIn, test } from "./support/fixtures.ts";
import { E2E_PASSWORD, type E2eState } from "./support/state.ts";

/**
 * A vendor of its own (its figures must not mix with the other specs' data), with the integration
 * tests' hand-computed revenue data, a few days of sessions in March 2025 and metered usage in
 * the same days (tests/helpers/report-fixtures.ts seedValueData).
 */
async function reportsVendor(state: E2eState) {
  const db = createDb(state.databaseUrl, { max: 1 });
  try {
    const vendor = await createTenant(db, {
      name: "Reports Vendor",
      adminEmail: `staff-${Date.now()}@reports-vendor.example.com`,
      adminPassword: E2E_PASSWORD,
    });
    await seedRevenueData(db, vendor.tenantId);
    await seedValueData(db, vendor.tenantId);
    const ctx = systemContext(db, vendor.tenantId, "e2e");
    const license = await insertLicense(ctx, {
      name: "Studio floating",
      seats: 4,
      inForceFrom: "2025-01-01T00:00:00Z",
    });
    await insertSessions(db, vendor.tenantId, [
      {
        entitlementId: license.id,
        device: "a",
        activatedAt: "2025-03-01T09:00:00Z",
        seatHeldUntil: "2025-03-02T09:00:00Z",
      },
      {
        entitlementId: license.id,
        device: "b",
        activatedAt: "2025-03-01T10:00:00Z",
        seatHeldUntil: "2025-03-01T12:00:00Z",
      },
      {
        entitlementId: license.id,
        device: "c",
        activatedAt: "2025-03-02T08:00:00Z",
        seatHeldUntil: "2025-03-02T18:00:00Z",
        activationKind: "Offline",
      },
    ]);
    return { email: vendor.adminEmail, password: E2E_PASSWORD };
  } finally {
    await db.$disconnect();
  }
}

async function setPeriod(page: Page, from: string, to: string) {
  await page.getByLabel("From", { exact: true }).fill(from);
  await page.getByLabel("To", { exact: true }).fill(to);
}

async function downloadCsv(page: Page) {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("csv-download").click(),
  ]);
  const text = await readFile((await download.path())!, "utf8");
  return { name: download.suggestedFilename(), lines: text.split("\r\n").filter(Boolean) };
}

test("the Reports pages chart revenue, seat utilisation, activations and value delivered, and download their CSV", async ({
  page,
  state,
}) => {
  const staff = await reportsVendor(state);
  await signIn(page, "admin", staff);
  const nav = page.getByRole("navigation", { name: "Back office" });

  await nav.getByRole("link", { name: "Revenue", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Revenue", level: 1 })).toBeVisible();
  // The default period's answer first: the page is hydrated and its filters are live.
  await expect(page.getByTestId("revenue-totals")).toBeVisible();
  await setPeriod(page, "2025-01-01", "2025-07-01");
  const totals = page.getByTestId("revenue-totals");
  await expect(totals).toContainText("EUR 252");
  await expect(totals).toContainText("USD 300");
  await expect(page.getByTestId("revenue-by-plan").getByRole("row", { name: /Basic/ })).toContainText(
    "EUR 150",
  );
  await expect(page.getByTestId("unpriced-plans")).toContainText("Unpriced");
  await expect(page.getByTestId("unweighted-plans")).toContainText("Unweighted");
  await expect(page.getByTestId("relative-shares")).toContainText("60%");
  // One chart per currency: Basic and Pro in EUR, Team in USD.
  await expect(page.getByTestId("revenue-chart-EUR").locator(".recharts-bar-rectangle path")).toHaveCount(2);
  await expect(page.getByTestId("revenue-chart-USD").locator(".recharts-bar-rectangle path")).toHaveCount(1);
  await screenshot(page, "reports-revenue");
  const revenueCsv = await downloadCsv(page);
  expect(revenueCsv.name).toBe("revenue_2025-01-01_2025-07-01.csv");
  expect(revenueCsv.lines[0]).toMatch(/^entitlementId,entitlementName,customerId,/);
  expect(revenueCsv.lines).toHaveLength(15);

  await nav.getByRole("link", { name: "Seat utilisation", exact: true }).click();
  await expect(page.getByTestId("peak-seats")).toBeVisible();
  await setPeriod(page, "2025-03-01", "2025-03-04");
  await page.getByLabel("Interval").selectOption("day");
  // The narrowed period's answer (the default period's also counts the revenue licenses' seats).
  await expect(page.getByTestId("seats-in-force")).toHaveText("4Most seats in force");
  await expect(page.getByTestId("peak-seats")).toHaveText("2Most seats held at once");
  await expect(page.getByTestId("most-utilized")).toContainText("Studio floating");
  await expect(
    page.getByTestId("seat-utilization-chart").locator("svg.recharts-surface[role=application]"),
  ).toBeVisible();
  await screenshot(page, "reports-seat-utilization");
  const seatsCsv = await downloadCsv(page);
  expect(seatsCsv.lines).toEqual([
    "entitlementId,entitlementName,numberOfSeats,peakSeatsInUse,sessions,utilization",
    expect.stringMatching(/,Studio floating,4,2,3,0.5$/),
  ]);

  await nav.getByRole("link", { name: "Activations", exact: true }).click();
  await expect(page.getByTestId("total-activations")).toBeVisible();
  await setPeriod(page, "2025-03-01", "2025-03-04");
  await page.getByLabel("Interval").selectOption("day");
  await expect(page.getByTestId("total-activations")).toHaveText("3Activations");
  await expect(page.getByTestId("activations-table").getByRole("row")).toHaveCount(4);
  await expect(
    page.getByTestId("activations-chart").locator("svg.recharts-surface[role=application]"),
  ).toBeVisible();
  // Day 1 online, day 2 offline: one bar each.
  await expect(page.getByTestId("activations-chart").locator(".recharts-bar-rectangle path")).toHaveCount(2);
  await screenshot(page, "reports-activations");
  const activationsCsv = await downloadCsv(page);
  expect(activationsCsv.lines).toHaveLength(4);
  expect(activationsCsv.lines[3]).toContain(",Offline,");

  await nav.getByRole("link", { name: "Value delivered", exact: true }).click();
  await expect(page.getByTestId("total-value")).toBeVisible();
  await setPeriod(page, "2025-03-01", "2025-03-04");
  await page.getByLabel("Interval").selectOption("day");
  await expect(page.getByTestId("total-value")).toHaveText("100Value delivered");
  await expect(page.getByTestId("value-by-feature").getByRole("row", { name: /API calls/ })).toContainText(
    "100%",
  );
  await expect(page.getByTestId("unvalued-features")).toContainText("Exports");
  // 1 and 2 March: one bar each for the valued feature.
  await expect(page.getByTestId("value-chart").locator(".recharts-bar-rectangle path")).toHaveCount(2);
  await screenshot(page, "reports-value-delivered");
  const valueCsv = await downloadCsv(page);
  expect(valueCsv.name).toBe("value-delivered_2025-03-01_2025-03-04.csv");
  expect(valueCsv.lines).toHaveLength(4);
  expect(valueCsv.lines[0]).toBe(
    "from,to,featureCatalogId,featureCode,featureName,productId,metricName,units,valueScore,usage,value",
  );
  expect(valueCsv.lines.filter((l) => l.includes(",api-calls,"))).toEqual([
    expect.stringMatching(/^2025-03-01T00:00:00.000Z,.*,0.5,100.000000,50.000000$/),
    expect.stringMatching(/^2025-03-02T00:00:00.000Z,.*,0.5,100.000000,50.000000$/),
  ]);

  await setPeriod(page, "2025-03-04", "2025-03-01");
  await expect(page.getByTestId("problem")).toHaveAttribute("data-code", "report.invalid_period");
});

test("the CSV export route is for signed-in staff only", async ({ playwright, state }) => {
  const anonymous = await playwright.request.newContext({ baseURL: state.baseUrl });
  const res = await anonymous.get("/admin/reports/export/revenue?from=2025-01-01&to=2025-07-01");
  expect(res.status()).toBe(401);
  expect(res.headers()["content-type"]).toMatch(/^application\/problem\+json/);
  expect((await res.json()).codeName).toBe("auth.unauthenticated");
  await anonymous.dispose();
});
