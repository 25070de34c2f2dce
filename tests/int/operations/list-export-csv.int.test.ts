import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, createTestTenant, type TestTenant } from "../../helpers/api.ts";
import { insertEntitlement, makeOrganization } from "../../helpers/licensing-fixtures.ts";
import { uiSignIn } from "../../helpers/ui-session.ts";
import { parseCsv } from "../../helpers/csv.ts";

describe("list exports for spreadsheets (GET /admin/export/{list})", () => {
  let tenant: TestTenant;
  let staff: string;

  beforeAll(async () => {
    tenant = await createTestTenant("Flat CSV");
    staff = (await uiSignIn("staff", { email: tenant.adminEmail, password: tenant.adminPassword })).cookie;
  });

  it("an entitlements export has flat cells, no JSON, and the customer's name beside its id", async () => {
    const tag = randomUUID().slice(0, 6);
    const organization = await makeOrganization(tenant, { name: `Globex ${tag}` });
    const entitlement = await insertEntitlement(tenant, {
      name: `Flat ${tag}`,
      customerId: organization.id,
      customerKind: "Organization",
      claimBasedActivation: { numberOfSeats: 7 },
    });
    const filter = encodeURIComponent(`name@=Flat ${tag}`);
    const res = await fetch(`${baseUrl()}/admin/export/entitlements?filter=${filter}`, {
      headers: { cookie: staff },
    });
    expect(res.status).toBe(200);
    const [header, ...rows] = parseCsv(await res.text());
    expect(rows).toHaveLength(1);
    const row = Object.fromEntries(header.map((h, i) => [h, rows[0][i]]));
    for (const cell of [...header, ...rows[0]]) expect(cell).not.toMatch(/^[{[]/);
    expect(row.id).toBe(entitlement.id);
    expect(row.customerId).toBe(organization.id);
    expect(row.customerName).toBe(`Globex ${tag}`);
    expect(header.indexOf("customerName")).toBe(header.indexOf("customerId") + 1);
    expect(header).toEqual(
      expect.arrayContaining(["productNames", "productIds", "featureNames", "planHistoryCount"]),
    );
    expect(header).not.toContain("activationPolicy");
    expect(row.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });
});
