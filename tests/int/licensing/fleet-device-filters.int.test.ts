import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, testDb, type TestTenant } from "../../helpers/api.ts";
import {
  insertEntitlement,
  insertSession,
  makeCustomerUser,
  makeOrganization,
} from "../../helpers/licensing-fixtures.ts";
import { trpcQuery } from "../../helpers/ui-session.ts";
import { staffCookie } from "../../helpers/staff-session.ts";
import { systemContext } from "../../../server/domain/context.ts";
import { createProduct } from "../../../server/domain/catalog/products/create-product.ts";
import { ZProductCreateRequest } from "../../../server/domain/catalog/products/product.schemas.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import type { StaffRole } from "../../../server/domain/identity/staff-roles/staff-roles.ts";

/**
 * The fleet Devices page's customer and product filters (licensing.listAllDevices with
 * `customerId` and `productId`, issue 23) over HTTP: every staff role reads them; they combine with
 * each other and with the Sieve filter; another tenant's customer or product is not found; a value
 * that is not an id is a plain 400.
 */

const PASSWORD = "Fleet-filters-pass-1";
let tenant: TestTenant;
let other: TestTenant;
const cookies = {} as Record<StaffRole | "otherAdmin", string>;
const ids = {} as Record<"acme" | "globex" | "editor" | "render" | "otherCustomer" | "otherProduct", string>;
const devices = {} as Record<"acmeEditor" | "acmeRender" | "globexRender", string>;

const staff = (t: TestTenant, role: StaffRole, email: string) => staffCookie(t, role, email, PASSWORD);

const product = (t: TestTenant, name: string, productCode: string) =>
  createProduct(
    systemContext(testDb(), t.tenantId, "test"),
    ZProductCreateRequest.parse({ name, productCode }),
  );

/** A license of the customer granting the product, with one device of that name. */
async function deviceOf(t: TestTenant, customerId: string, productId: string, deviceName: string) {
  const entitlement = await insertEntitlement(t, { customerId, productIds: [productId] });
  const { device } = await insertSession(t, entitlement.id, { fingerprint: `fleet-filter-${deviceName}` });
  await tenantDb(testDb(), t.tenantId).device.update({ where: { id: device.id }, data: { deviceName } });
  return device.id;
}

type Page = { items: { id: string; deviceName: string }[]; totalCount: number };
type Refusal = { status: number; error?: { message: string; data?: { code?: string } } };
const list = (input: Record<string, unknown>, cookie: string) =>
  trpcQuery<Page>(
    "licensing.listAllDevices",
    { pageNumber: 1, pageSize: 50, sortOrder: "deviceName", ...input },
    cookie,
  );
const names = (res: { data?: Page }) => res.data?.items.map((d) => d.deviceName);

beforeAll(async () => {
  tenant = await createTestTenant("Fleet filters");
  other = await createTestTenant("Fleet filters other");
  cookies.admin = await staff(tenant, "admin", "admin@fleet-filters.example.com");
  cookies["catalog-editor"] = await staff(tenant, "catalog-editor", "editor@fleet-filters.example.com");
  cookies.support = await staff(tenant, "support", "support@fleet-filters.example.com");
  cookies["read-only"] = await staff(tenant, "read-only", "reader@fleet-filters.example.com");
  cookies.otherAdmin = await staff(other, "admin", "admin@fleet-filters-other.example.com");

  ids.acme = (await makeOrganization(tenant, { name: "Acme Studios" })).id;
  ids.globex = (await makeCustomerUser(tenant, { email: "ops@globex.example.com" })).id;
  ids.editor = (await product(tenant, "Photo Editor", "PHOTO")).id;
  ids.render = (await product(tenant, "Render Farm", "RENDER")).id;
  devices.acmeEditor = await deviceOf(tenant, ids.acme, ids.editor, "Acme editor laptop");
  devices.acmeRender = await deviceOf(tenant, ids.acme, ids.render, "Acme render node");
  devices.globexRender = await deviceOf(tenant, ids.globex, ids.render, "Globex render node");

  ids.otherCustomer = (await makeOrganization(other, { name: "Acme Studios" })).id;
  ids.otherProduct = (await product(other, "Render Farm", "RENDER")).id;
  await deviceOf(other, ids.otherCustomer, ids.otherProduct, "Acme render node");
});

describe("licensing.listAllDevices by customer and product", () => {
  it("a customer's devices, of any of its licenses", async () => {
    const res = await list({ customerId: ids.acme }, cookies.admin);
    expect(res.status, JSON.stringify(res.error)).toBe(200);
    expect(names(res)).toEqual(["Acme editor laptop", "Acme render node"]);
    expect(res.data?.totalCount).toBe(2);
  });

  it("a product's devices, of any customer; with a customer too, only that customer's", async () => {
    expect(names(await list({ productId: ids.render }, cookies.admin))).toEqual([
      "Acme render node",
      "Globex render node",
    ]);
    expect(names(await list({ productId: ids.render, customerId: ids.globex }, cookies.admin))).toEqual([
      "Globex render node",
    ]);
    expect(names(await list({ productId: ids.editor, customerId: ids.globex }, cookies.admin))).toEqual([]);
  });

  it("combines with the page's own filters (name, blocked)", async () => {
    expect(names(await list({ customerId: ids.acme, filter: "deviceName@=*render" }, cookies.admin))).toEqual(
      ["Acme render node"],
    );
    await tenantDb(testDb(), tenant.tenantId).device.update({
      where: { id: devices.acmeEditor },
      data: { isBlocked: true, blockedAt: new Date("2026-11-01T00:00:00.000Z") },
    });
    expect(names(await list({ customerId: ids.acme, filter: "isBlocked==true" }, cookies.admin))).toEqual([
      "Acme editor laptop",
    ]);
  });

  it("every staff role may read it (devices are readable by all, docs/security.md)", async () => {
    for (const role of ["catalog-editor", "support", "read-only"] as const) {
      const res = await list({ customerId: ids.globex }, cookies[role]);
      expect(res.status, role).toBe(200);
      expect(names(res)).toEqual(["Globex render node"]);
    }
  });

  it("another tenant's customer or product is not found, either way round", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ customerId: ids.otherCustomer }, cookies.admin],
      [{ productId: ids.otherProduct }, cookies.admin],
      [{ customerId: ids.acme }, cookies.otherAdmin],
      [{ productId: ids.render }, cookies.otherAdmin],
    ];
    for (const [input, cookie] of cases) {
      const res = (await list(input, cookie)) as Refusal;
      expect(res.status, JSON.stringify(input)).toBe(404);
      expect(res.error?.data?.code).toBe("NOT_FOUND");
    }
  });

  it("a customer or product that is not an id is a plain 400", async () => {
    const customer = (await list({ customerId: "Acme Studios" }, cookies.admin)) as Refusal;
    expect(customer.status).toBe(400);
    expect(customer.error?.data?.code).toBe("BAD_REQUEST");
    expect(customer.error?.message).toBe("Invalid input: customerId: Invalid UUID");
    const productRes = (await list({ productId: "RENDER" }, cookies.admin)) as Refusal;
    expect(productRes.status).toBe(400);
    expect(productRes.error?.message).toBe("Invalid input: productId: Invalid UUID");
  });
});
