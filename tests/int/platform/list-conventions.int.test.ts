import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, type TestTenant } from "../../helpers/api.ts";

const TAGS = "/api/v1/provision/admin/tags";

/** Sieve filter/sort and the pagination envelope, exercised over HTTP on the tags list. */
describe("list conventions (Sieve, pagination) on GET /admin/tags", () => {
  let tenant: TestTenant;
  let token: string;
  const names = ["Apple", "apricot", "Banana", "blueberry", "Cherry", "Comma,Fruit", "Pipe|Fruit", "Date"];

  const list = async (query: string) => {
    const res = await request("GET", `${TAGS}?${query}`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body as {
      items: { name: string; color: string | null }[];
      totalCount: number;
      totalPages: number;
      pageNumber: number;
      pageSize: number;
      hasNextPage: boolean;
      hasPreviousPage: boolean;
    };
  };
  const namesOf = async (filter: string) =>
    (await list(`filter=${encodeURIComponent(filter)}&sortOrder=name&pageSize=100`)).items.map((t) => t.name);

  beforeAll(async () => {
    tenant = await createTestTenant("Lists");
    token = await tenant.token("provision.tag.*");
    for (const [i, name] of names.entries()) {
      const res = await request("POST", TAGS, {
        token,
        body: { scope: "Product", name, color: i % 2 ? "#00ff00" : null },
      });
      expect(res.status).toBe(201);
    }
    await request("POST", TAGS, { token, body: { scope: "FeatureCatalog", name: "Feature-only" } });
  });

  it("== and != (case-sensitive) and their case-insensitive forms", async () => {
    expect(await namesOf("name==Apple")).toEqual(["Apple"]);
    expect(await namesOf("name==apple")).toEqual([]);
    expect(await namesOf("name==*apple")).toEqual(["Apple"]);
    expect((await namesOf("name!=Apple,scope==Product")).length).toBe(names.length - 1);
    expect((await namesOf("name!=*APPLE,scope==Product")).length).toBe(names.length - 1);
  });

  it("@= contains, _= starts with, _-= ends with, with negations and * forms", async () => {
    expect(await namesOf("name@=rr")).toEqual(["Cherry", "blueberry"].sort());
    expect(await namesOf("name@=*AN")).toEqual(["Banana"]);
    expect(await namesOf("name_=Ap")).toEqual(["Apple"]);
    expect(await namesOf("name_=*ap")).toEqual(["Apple", "apricot"]);
    expect(await namesOf("name_-=ry")).toEqual(["Cherry", "blueberry"].sort());
    expect(await namesOf("name_-=*RY")).toEqual(["Cherry", "blueberry"].sort());
    const product = "scope==Product,";
    expect((await namesOf(`${product}name!@=an`)).includes("Banana")).toBe(false);
    expect((await namesOf(`${product}name!@=*AN`)).includes("Banana")).toBe(false);
    expect((await namesOf(`${product}name!_=Ap`)).includes("Apple")).toBe(false);
    expect((await namesOf(`${product}name!_=*ap`)).some((n) => /^ap/i.test(n))).toBe(false);
    expect((await namesOf(`${product}name!_-=ry`)).some((n) => n.endsWith("ry"))).toBe(false);
    expect((await namesOf(`${product}name!_-=*RY`)).some((n) => n.endsWith("ry"))).toBe(false);
  });

  it(">, <, >=, <= on strings and numbers", async () => {
    expect(await namesOf("scope==Product,name>C,name<D")).toEqual(["Cherry", "Comma,Fruit"]);
    expect(await namesOf("scope==Product,name>=Date,name<=Date")).toEqual(["Date"]);
    expect((await namesOf("revisionNumber>=1")).length).toBe(names.length + 1);
    expect(await namesOf("revisionNumber>1")).toEqual([]);
    expect((await namesOf("revisionNumber<2")).length).toBe(names.length + 1);
    expect((await namesOf("revisionNumber<=0")).length).toBe(0);
  });

  it("| inside values and inside names means OR; terms separated by , are ANDed", async () => {
    expect(await namesOf("name==Apple|Banana")).toEqual(["Apple", "Banana"]);
    expect(await namesOf("name|color@=*fruit")).toEqual(["Comma,Fruit", "Pipe|Fruit"]);
    expect(await namesOf("name@=*an,name_=B")).toEqual(["Banana"]);
  });

  it("\\, and \\| escape a literal comma and pipe", async () => {
    expect(await namesOf("name==Comma\\,Fruit")).toEqual(["Comma,Fruit"]);
    expect(await namesOf("name==Pipe\\|Fruit")).toEqual(["Pipe|Fruit"]);
  });

  it("null and booleans and dates", async () => {
    expect((await namesOf("scope==Product,color==null")).length).toBe(4);
    expect((await namesOf("scope==Product,color!=null")).length).toBe(4);
    expect(await namesOf("isDeleted==false,scope==FeatureCatalog")).toEqual(["Feature-only"]);
    expect(await namesOf("createdAt<2000-01-01")).toEqual([]);
    expect((await namesOf("createdAt>2000-01-01T00:00:00Z")).length).toBe(names.length + 1);
  });

  it("sortOrder ascending and descending, several fields", async () => {
    const asc = (await list("filter=scope==Product&sortOrder=name&pageSize=100")).items.map((t) => t.name);
    expect(asc).toEqual([...names].sort());
    const desc = (await list("filter=scope==Product&sortOrder=-name&pageSize=100")).items.map((t) => t.name);
    expect(desc).toEqual([...names].sort().reverse());
    const byColorThenName = (await list("filter=scope==Product&sortOrder=color,-name&pageSize=100")).items;
    expect(byColorThenName[0].color).toBe("#00ff00");
  });

  it("a non-whitelisted field, a non-parsing expression or a bad value answers 400 license.validation_error", async () => {
    for (const query of [
      "filter=secret==1",
      "filter=tenantId==x",
      "filter=name",
      "filter=name~~x",
      "filter=revisionNumber==abc",
      "filter=isDeleted==maybe",
      "filter=usageCount==1",
      "sortOrder=secret",
      "sortOrder=name,name",
      "pageNumber=0",
      "pageSize=-1",
      "pageNumber=abc",
    ]) {
      const res = await request("GET", `${TAGS}?${query}`, { token });
      expectProblem(res, 400, "license.validation_error");
    }
  });

  it("pageSize defaults to 20, larger values are clamped to 100 silently", async () => {
    expect((await list("")).pageSize).toBe(20);
    const clamped = await list("pageSize=1000");
    expect(clamped.pageSize).toBe(100);
  });

  it("envelope arithmetic: totalCount, totalPages, hasNext/hasPrevious", async () => {
    const first = await list("filter=scope==Product&sortOrder=name&pageSize=3&pageNumber=1");
    expect(first).toMatchObject({
      pageNumber: 1,
      pageSize: 3,
      totalCount: 8,
      totalPages: 3,
      hasNextPage: true,
      hasPreviousPage: false,
    });
    expect(first.items.map((t) => t.name)).toEqual([...names].sort().slice(0, 3));
    const last = await list("filter=scope==Product&sortOrder=name&pageSize=3&pageNumber=3");
    expect(last).toMatchObject({ pageNumber: 3, totalPages: 3, hasNextPage: false, hasPreviousPage: true });
    expect(last.items.map((t) => t.name)).toEqual([...names].sort().slice(6));
    const beyond = await list("filter=scope==Product&pageSize=3&pageNumber=9");
    expect(beyond).toMatchObject({
      items: [],
      totalCount: 8,
      totalPages: 3,
      hasNextPage: false,
      hasPreviousPage: true,
    });
    const zero = await list("filter=scope==Product&pageSize=0");
    expect(zero).toMatchObject({ items: [], totalCount: 8, totalPages: 0, hasNextPage: false });
  });
});
