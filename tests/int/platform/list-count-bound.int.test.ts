import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, testDb } from "../../helpers/api.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import { listPage, type ListQuery } from "../../../server/db/list-page.ts";

/**
 * A list that bounds its count (docs/decisions.md "Bounded list counts") counts at most
 * `countBeyondPage` rows past the page it answers; beyond, totalCount is that bound and the page
 * says so. Seven tags of a tenant of their own, counted with a bound of 2.
 */
describe("list pages with a bounded count", () => {
  let db: ReturnType<typeof tenantDb>;

  beforeAll(async () => {
    const tenant = await createTestTenant("Count bound");
    db = tenantDb(testDb(), tenant.tenantId);
    for (let i = 1; i <= 7; i++)
      await db.tag.create({
        data: { tenantId: tenant.tenantId, scope: "Product", name: `t${i}`, activeNameKey: `t${i}` },
      });
  });

  const page = (query: ListQuery, countBeyondPage?: number) =>
    listPage(
      query,
      {
        defaultOrder: [{ name: "asc" }],
        findMany: (args) => db.tag.findMany(args),
        count: (args) => db.tag.count(args),
        countBeyondPage,
      },
      (rows) => rows.map((r) => r.name),
    );

  it("counts exactly while the rows end within the bound, and stops at the bound past it", async () => {
    expect(await page({ pageNumber: 1, pageSize: 2 }, 2)).toEqual({
      items: ["t1", "t2"],
      pageNumber: 1,
      pageSize: 2,
      totalCount: 4,
      totalPages: 2,
      hasNextPage: true,
      hasPreviousPage: false,
      totalCountIsLowerBound: true,
    });
    expect(await page({ pageNumber: 3, pageSize: 2 }, 2)).toEqual({
      items: ["t5", "t6"],
      pageNumber: 3,
      pageSize: 2,
      totalCount: 7,
      totalPages: 4,
      hasNextPage: true,
      hasPreviousPage: true,
    });
    expect(await page({ pageNumber: 1, pageSize: 2 })).toEqual({
      items: ["t1", "t2"],
      pageNumber: 1,
      pageSize: 2,
      totalCount: 7,
      totalPages: 4,
      hasNextPage: true,
      hasPreviousPage: false,
    });
  });
});
