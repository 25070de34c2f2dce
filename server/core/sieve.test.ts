import { describe, it, expect } from "vitest";
import fc from "fast-check";
import { AppError } from "./errors";
import { parseSieveFilter, type SieveOperator, type SieveWhitelist } from "./sieve";
import { sieveOrderBy, sieveWhere } from "../db/sieve-where";

const UUID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";

const toWhereCalls: { op: SieveOperator; value: string | null; caseInsensitive: boolean }[] = [];

const whitelist: SieveWhitelist = {
  name: { type: "string", nullable: true },
  description: { type: "string", nullable: true, column: "details" },
  seats: { type: "integer", nullable: true },
  price: { type: "number", nullable: true },
  active: { type: "boolean", nullable: true },
  createdAt: { type: "date", nullable: true },
  id: { type: "uuid", nullable: false },
  status: { type: "enum", values: ["active", "revoked", "Expired"], nullable: false },
  customerName: { type: "string", nullable: true, column: "customer.name" },
  secret: { type: "string", nullable: true, filterable: false, sortable: false },
  internalNote: { type: "string", nullable: true, filterable: false },
  rank: { type: "integer", nullable: true, sortable: false },
  tags: {
    type: "string",
    nullable: true,
    sortable: false,
    toWhere: (op, value, caseInsensitive) => {
      toWhereCalls.push({ op, value, caseInsensitive });
      return { assignments: { some: { tag: { name: { equals: value } } } } };
    },
  },
  ownerId: {
    type: "uuid",
    nullable: true,
    toWhere: (op, value) => ({ owners: { some: { id: value } }, op }),
  },
};

/** The condition of a single-term filter. */
const where1 = (filter: string) => {
  const result = sieveWhere(filter, whitelist) as { AND: unknown[] };
  expect(result.AND).toHaveLength(1);
  return result.AND[0];
};

/** Runs fn, asserts it throws the validation AppError and returns it. */
function validationFailure(fn: () => unknown): AppError {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(AppError);
  const error = thrown as AppError;
  expect(error.codeName).toBe("license.validation_error");
  expect(error.status).toBe(400);
  return error;
}

const orNull = (column: string, positive: object) => ({
  OR: [{ [column]: null }, { NOT: { [column]: positive } }],
});

describe("parseSieveFilter", () => {
  it("returns no terms for empty or blank input", () => {
    expect(parseSieveFilter("")).toEqual([]);
    expect(parseSieveFilter("   ")).toEqual([]);
  });

  it.each([
    ["a==x", "==", false],
    ["a!=x", "!=", false],
    ["a>x", ">", false],
    ["a<x", "<", false],
    ["a>=x", ">=", false],
    ["a<=x", "<=", false],
    ["a@=x", "@=", false],
    ["a_=x", "_=", false],
    ["a_-=x", "_-=", false],
    ["a!@=x", "!@=", false],
    ["a!_=x", "!_=", false],
    ["a!_-=x", "!_-=", false],
    ["a==*x", "==", true],
    ["a!=*x", "!=", true],
    ["a@=*x", "@=", true],
    ["a_=*x", "_=", true],
    ["a_-=*x", "_-=", true],
    ["a!@=*x", "!@=", true],
    ["a!_=*x", "!_=", true],
    ["a!_-=*x", "!_-=", true],
  ])("parses %s with the longest matching operator", (filter, op, caseInsensitive) => {
    expect(parseSieveFilter(filter)).toEqual([{ fields: ["a"], op, caseInsensitive, values: ["x"] }]);
  });

  it("does not read a trailing * of an ordering operator as case-insensitive", () => {
    expect(parseSieveFilter("a>*x")).toEqual([
      { fields: ["a"], op: ">", caseInsensitive: false, values: ["*x"] },
    ]);
  });

  it("keeps underscores in field names and finds the operator after them", () => {
    expect(parseSieveFilter("created_at==1,created_at_=2")).toEqual([
      { fields: ["created_at"], op: "==", caseInsensitive: false, values: ["1"] },
      { fields: ["created_at"], op: "_=", caseInsensitive: false, values: ["2"] },
    ]);
  });

  it("takes everything after the first operator as the value", () => {
    expect(parseSieveFilter("a==b==c>=d")).toEqual([
      { fields: ["a"], op: "==", caseInsensitive: false, values: ["b==c>=d"] },
    ]);
  });

  it("splits names and values on | and terms on ,", () => {
    expect(parseSieveFilter("Name|Description@=foo|bar,seats>3")).toEqual([
      { fields: ["Name", "Description"], op: "@=", caseInsensitive: false, values: ["foo", "bar"] },
      { fields: ["seats"], op: ">", caseInsensitive: false, values: ["3"] },
    ]);
  });

  it("trims names and the whole term but not the inside of values", () => {
    expect(parseSieveFilter("  Name | Description @= foo  bar , seats >3 ")).toEqual([
      { fields: ["Name", "Description"], op: "@=", caseInsensitive: false, values: [" foo  bar"] },
      { fields: ["seats"], op: ">", caseInsensitive: false, values: ["3"] },
    ]);
    expect(parseSieveFilter("a==x | y")[0].values).toEqual(["x ", " y"]);
  });

  it("unescapes \\, \\| and \\\\ in values", () => {
    expect(parseSieveFilter("a==x\\,y\\|z\\\\w|v")[0].values).toEqual(["x,y|z\\w", "v"]);
  });

  it("lets a backslash make any character literal", () => {
    expect(parseSieveFilter("a==\\*x")[0]).toEqual({
      fields: ["a"],
      op: "==",
      caseInsensitive: false,
      values: ["*x"],
    });
    expect(parseSieveFilter("a==x\\ ")[0].values).toEqual(["x "]);
  });

  it("reads an unescaped null with == and != as SQL NULL", () => {
    expect(parseSieveFilter("a==null|x,a!=null,a==*null")).toEqual([
      { fields: ["a"], op: "==", caseInsensitive: false, values: [null, "x"] },
      { fields: ["a"], op: "!=", caseInsensitive: false, values: [null] },
      { fields: ["a"], op: "==", caseInsensitive: true, values: [null] },
    ]);
  });

  it("keeps null as text when escaped, differently cased or with another operator", () => {
    expect(parseSieveFilter("a==\\null,a==NULL,a@=null,a==nullx").map((t) => t.values)).toEqual([
      ["null"],
      ["NULL"],
      ["null"],
      ["nullx"],
    ]);
  });

  it("keeps empty values (the whitelist decides whether they are allowed)", () => {
    expect(parseSieveFilter("a==")[0].values).toEqual([""]);
    expect(parseSieveFilter("a==x|")[0].values).toEqual(["x", ""]);
  });

  it.each([
    ["name", /no valid operator/],
    ["name=x", /no valid operator/],
    ["==x", /missing a field name/],
    ["a||b==x", /missing a field name/],
    ["a b==x", /"a b" is not a valid field name/],
    ["1a==x", /"1a" is not a valid field name/],
    ["a\\b==x", /escapes are only allowed in values/],
    ["a==x,,b==y", /empty term/],
    ["a==x,", /empty term/],
    ["a==x\\", /lone backslash/],
  ])("rejects %s", (filter, detail) => {
    expect(validationFailure(() => parseSieveFilter(filter)).message).toMatch(detail);
  });

  it("names the offending term in the error", () => {
    expect(validationFailure(() => parseSieveFilter("a==1,bogus")).message).toContain('"bogus"');
  });
});

describe("sieveWhere: string operators", () => {
  it.each([
    ["name==foo", { name: { equals: "foo" } }],
    ["name!=foo", orNull("name", { equals: "foo" })],
    ["name>foo", { name: { gt: "foo" } }],
    ["name<foo", { name: { lt: "foo" } }],
    ["name>=foo", { name: { gte: "foo" } }],
    ["name<=foo", { name: { lte: "foo" } }],
    ["name@=foo", { name: { contains: "foo" } }],
    ["name_=foo", { name: { startsWith: "foo" } }],
    ["name_-=foo", { name: { endsWith: "foo" } }],
    ["name!@=foo", orNull("name", { contains: "foo" })],
    ["name!_=foo", orNull("name", { startsWith: "foo" })],
    ["name!_-=foo", orNull("name", { endsWith: "foo" })],
  ])("%s", (filter, expected) => {
    expect(where1(filter)).toEqual(expected);
  });

  it.each([
    ["name==*Foo", { name: { equals: "Foo", mode: "insensitive" } }],
    ["name!=*Foo", orNull("name", { equals: "Foo", mode: "insensitive" })],
    ["name@=*Foo", { name: { contains: "Foo", mode: "insensitive" } }],
    ["name_=*Foo", { name: { startsWith: "Foo", mode: "insensitive" } }],
    ["name_-=*Foo", { name: { endsWith: "Foo", mode: "insensitive" } }],
    ["name!@=*Foo", orNull("name", { contains: "Foo", mode: "insensitive" })],
    ["name!_=*Foo", orNull("name", { startsWith: "Foo", mode: "insensitive" })],
    ["name!_-=*Foo", orNull("name", { endsWith: "Foo", mode: "insensitive" })],
  ])("case-insensitive %s", (filter, expected) => {
    expect(where1(filter)).toEqual(expected);
  });

  it("allows an empty string with == and != only", () => {
    expect(where1("name==")).toEqual({ name: { equals: "" } });
    expect(where1("name!=")).toEqual(orNull("name", { equals: "" }));
    expect(validationFailure(() => sieveWhere("name@=", whitelist)).message).toMatch(/empty value.*"name"/);
    expect(validationFailure(() => sieveWhere("name_=*", whitelist)).message).toMatch(/empty value/);
  });

  it("uses the configured column", () => {
    expect(where1("description@=x")).toEqual({ details: { contains: "x" } });
  });

  it("keeps escaped commas and pipes inside the value", () => {
    expect(where1("name==a\\,b\\|c")).toEqual({ name: { equals: "a,b|c" } });
  });
});

describe("sieveWhere: null", () => {
  it("translates ==null and !=null to IS NULL / IS NOT NULL", () => {
    expect(where1("name==null")).toEqual({ name: null });
    expect(where1("name!=null")).toEqual({ name: { not: null } });
    expect(where1("seats==null")).toEqual({ seats: null });
    expect(where1("customerName!=null")).toEqual({ customer: { name: { not: null } } });
  });

  it("treats an escaped null as text", () => {
    expect(where1("name==\\null")).toEqual({ name: { equals: "null" } });
  });

  it("mixes null with other values", () => {
    expect(where1("name==null|x")).toEqual({ OR: [{ name: null }, { name: { equals: "x" } }] });
  });

  it("refuses null on a field that is never null and leaves out the null branch of negations", () => {
    expect(validationFailure(() => sieveWhere("id==null", whitelist)).message).toMatch(/"id" is never null/);
    expect(validationFailure(() => sieveWhere("status!=null", whitelist)).message).toMatch(
      /"status" is never null/,
    );
    expect(where1(`id!=${UUID}`)).toEqual({ NOT: { id: { equals: UUID } } });
  });

  it("reads null as text for other operators", () => {
    expect(where1("name@=null")).toEqual({ name: { contains: "null" } });
    expect(validationFailure(() => sieveWhere("seats>null", whitelist)).message).toMatch(
      /"null" is not an integer/,
    );
  });
});

describe("sieveWhere: numbers", () => {
  it.each([
    ["seats==3", { seats: { equals: 3 } }],
    ["seats!=3", orNull("seats", { equals: 3 })],
    ["seats>3", { seats: { gt: 3 } }],
    ["seats<-3", { seats: { lt: -3 } }],
    ["seats>=+3", { seats: { gte: 3 } }],
    ["seats<=0", { seats: { lte: 0 } }],
    ["price==1.5", { price: { equals: 1.5 } }],
    ["price>.5", { price: { gt: 0.5 } }],
    ["price<1e3", { price: { lt: 1000 } }],
  ])("%s", (filter, expected) => {
    expect(where1(filter)).toEqual(expected);
  });

  it.each([
    ["seats==1.5", /"1.5" is not an integer/],
    ["seats==1e3", /"1e3" is not an integer/],
    ["seats==abc", /"abc" is not an integer/],
    ["seats==9007199254740993", /is not an integer/],
    ["price==abc", /"abc" is not a number/],
    ["price==0x10", /"0x10" is not a number/],
    ["price==Infinity", /is not a number/],
    ["price>1e999", /"1e999" is not a finite number/],
    ["price<-1e999", /"-1e999" is not a finite number/],
    ["seats==2147483648", /is not between -2147483648 and 2147483647/],
    ["price== 1", /" 1" is not a number/],
    ["price==", /empty value/],
    ["seats@=1", /operator @= cannot be used on integer field "seats"/],
    ["price_=1", /operator _= cannot be used on number field "price"/],
    ["seats!_-=1", /operator !_-= cannot be used/],
    ["seats==*1", /case-insensitive operators cannot be used on integer field "seats"/],
  ])("rejects %s", (filter, detail) => {
    expect(validationFailure(() => sieveWhere(filter, whitelist)).message).toMatch(detail);
  });
});

describe("sieveWhere: booleans", () => {
  it("accepts true/false in any case with == and !=", () => {
    expect(where1("active==true")).toEqual({ active: { equals: true } });
    expect(where1("active==FALSE")).toEqual({ active: { equals: false } });
    expect(where1("active!=True")).toEqual(orNull("active", { equals: true }));
  });

  it.each([
    ["active==yes", /"yes" is not true or false/],
    ["active==1", /"1" is not true or false/],
    ["active>true", /operator > cannot be used on boolean field "active"/],
    ["active<=false", /operator <= cannot be used on boolean/],
    ["active@=true", /operator @= cannot be used on boolean/],
    ["active==*true", /case-insensitive operators cannot be used on boolean/],
    ["active==", /empty value/],
  ])("rejects %s", (filter, detail) => {
    expect(validationFailure(() => sieveWhere(filter, whitelist)).message).toMatch(detail);
  });
});

describe("sieveWhere: dates", () => {
  it.each([
    ["createdAt==2024-02-29", new Date("2024-02-29T00:00:00.000Z")],
    ["createdAt==2024-01-01T10:20", new Date("2024-01-01T10:20:00.000Z")],
    ["createdAt==2024-01-01T10:20:30", new Date("2024-01-01T10:20:30.000Z")],
    ["createdAt==2024-01-01T10:20:30.123456Z", new Date("2024-01-01T10:20:30.123Z")],
    ["createdAt==2024-01-01T10:00:00+02:00", new Date("2024-01-01T08:00:00.000Z")],
    ["createdAt==2024-01-01T10:00:00-0130", new Date("2024-01-01T11:30:00.000Z")],
  ])("parses %s as an instant (UTC unless an offset is given)", (filter, date) => {
    expect(where1(filter)).toEqual({ createdAt: { equals: date } });
  });

  it("supports comparisons and negation", () => {
    const date = new Date("2024-01-01T00:00:00.000Z");
    expect(where1("createdAt>2024-01-01")).toEqual({ createdAt: { gt: date } });
    expect(where1("createdAt<2024-01-01")).toEqual({ createdAt: { lt: date } });
    expect(where1("createdAt>=2024-01-01")).toEqual({ createdAt: { gte: date } });
    expect(where1("createdAt<=2024-01-01")).toEqual({ createdAt: { lte: date } });
    expect(where1("createdAt!=2024-01-01")).toEqual(orNull("createdAt", { equals: date }));
  });

  it.each([
    "yesterday",
    "2023-02-29",
    "2024-13-01",
    "2024-04-31",
    "2024-1-1",
    "2024-01-01T24:00",
    "2024-01-01T10:60",
    "2024-01-01T10:00:00+25:00",
    "1704067200000",
  ])("rejects the date %s", (value) => {
    expect(validationFailure(() => sieveWhere(`createdAt>${value}`, whitelist)).message).toContain(
      `"${value}" is not an ISO 8601 date or date-time`,
    );
  });

  it("refuses text operators on dates", () => {
    expect(validationFailure(() => sieveWhere("createdAt@=2024", whitelist)).message).toMatch(
      /operator @= cannot be used on date field "createdAt"/,
    );
  });
});

describe("sieveWhere: uuids", () => {
  it("accepts valid UUIDs with == and != and normalises them to lower case", () => {
    expect(where1(`id==${UUID.toUpperCase()}`)).toEqual({ id: { equals: UUID } });
    expect(where1(`id==*${UUID}`)).toEqual({ id: { equals: UUID } });
  });

  it.each([
    ["id==not-a-uuid", /"not-a-uuid" is not a valid UUID/],
    [`id==${UUID}0`, /is not a valid UUID/],
    ["id==", /empty value/],
    [`id@=${UUID}`, /operator @= cannot be used on uuid field "id"/],
    [`id_=3f25`, /operator _= cannot be used on uuid/],
    [`id>${UUID}`, /operator > cannot be used on uuid/],
  ])("rejects %s", (filter, detail) => {
    expect(validationFailure(() => sieveWhere(filter, whitelist)).message).toMatch(detail);
  });
});

describe("sieveWhere: enums", () => {
  it("matches values case-sensitively, or case-insensitively with the * forms", () => {
    expect(where1("status==active")).toEqual({ status: { equals: "active" } });
    expect(where1("status!=revoked")).toEqual({ NOT: { status: { equals: "revoked" } } });
    expect(where1("status==*ACTIVE")).toEqual({ status: { equals: "active" } });
    expect(where1("status!=*expired")).toEqual({ NOT: { status: { equals: "Expired" } } });
  });

  it.each([
    ["status==ACTIVE", /"ACTIVE" is not one of active, revoked, Expired/],
    ["status==gone", /"gone" is not one of/],
    ["status@=act", /operator @= cannot be used on enum field "status"/],
    ["status>active", /operator > cannot be used on enum/],
  ])("rejects %s", (filter, detail) => {
    expect(validationFailure(() => sieveWhere(filter, whitelist)).message).toMatch(detail);
  });
});

describe("sieveWhere: combining", () => {
  it("ORs over field names", () => {
    expect(where1("name|description@=foo")).toEqual({
      OR: [{ name: { contains: "foo" } }, { details: { contains: "foo" } }],
    });
  });

  it("ORs over values", () => {
    expect(where1("name==a|b")).toEqual({ OR: [{ name: { equals: "a" } }, { name: { equals: "b" } }] });
  });

  it("ORs over every (field, value) pair when both are given", () => {
    expect(where1("name|description_=*a|b")).toEqual({
      OR: [
        { name: { startsWith: "a", mode: "insensitive" } },
        { name: { startsWith: "b", mode: "insensitive" } },
        { details: { startsWith: "a", mode: "insensitive" } },
        { details: { startsWith: "b", mode: "insensitive" } },
      ],
    });
  });

  it("ORs negated pairs too, as upstream Sieve does", () => {
    expect(where1("seats!=1|2")).toEqual({
      OR: [orNull("seats", { equals: 1 }), orNull("seats", { equals: 2 })],
    });
  });

  it("converts each value for the type of each field", () => {
    expect(where1("seats|price==2")).toEqual({ OR: [{ seats: { equals: 2 } }, { price: { equals: 2 } }] });
    expect(validationFailure(() => sieveWhere("price|seats==2.5", whitelist)).message).toMatch(
      /"2.5" is not an integer \(field "seats"\)/,
    );
  });

  it("ANDs terms", () => {
    expect(sieveWhere("name@=a, seats>2,active==true", whitelist)).toEqual({
      AND: [{ name: { contains: "a" } }, { seats: { gt: 2 } }, { active: { equals: true } }],
    });
  });

  it("returns {} for empty input", () => {
    expect(sieveWhere(undefined, whitelist)).toEqual({});
    expect(sieveWhere(null, whitelist)).toEqual({});
    expect(sieveWhere("", whitelist)).toEqual({});
    expect(sieveWhere("  ", whitelist)).toEqual({});
  });
});

describe("sieveWhere: fields", () => {
  it("matches field names case-insensitively", () => {
    expect(sieveWhere("NAME==x,CreatedAT<2024-01-01,customername==y", whitelist)).toEqual({
      AND: [
        { name: { equals: "x" } },
        { createdAt: { lt: new Date("2024-01-01T00:00:00.000Z") } },
        { customer: { name: { equals: "y" } } },
      ],
    });
  });

  it("prefers an exact key over a case-insensitive one", () => {
    const twoKeys: SieveWhitelist = {
      name: { type: "string" },
      Name: { type: "string", column: "displayName" },
    };
    expect(sieveWhere("Name==x,name==y,NAME==z", twoKeys)).toEqual({
      AND: [{ displayName: { equals: "x" } }, { name: { equals: "y" } }, { name: { equals: "z" } }],
    });
  });

  it("nests dotted columns", () => {
    expect(where1("customerName@=*acme")).toEqual({
      customer: { name: { contains: "acme", mode: "insensitive" } },
    });
    expect(where1("customerName!=acme")).toEqual({
      OR: [{ customer: { name: null } }, { NOT: { customer: { name: { equals: "acme" } } } }],
    });
    expect(where1("customerName==null")).toEqual({ customer: { name: null } });
  });

  it("rejects unknown fields, naming them and listing the allowed ones", () => {
    const error = validationFailure(() => sieveWhere("name==x,nope==1", whitelist));
    expect(error.message).toContain('Unknown field "nope" in filter term "nope==1"');
    expect(error.message).toContain("allowed fields: name, description, seats");
    expect(error.message).not.toContain("secret");
  });

  it("rejects an unknown field among OR-ed names", () => {
    expect(validationFailure(() => sieveWhere("name|nope==x", whitelist)).message).toContain('"nope"');
  });

  it("rejects fields that are not filterable", () => {
    expect(validationFailure(() => sieveWhere("secret==x", whitelist)).message).toContain(
      'Field "secret" cannot be used to filter',
    );
    expect(validationFailure(() => sieveWhere("InternalNote@=x", whitelist)).message).toContain(
      'Field "internalNote" cannot be used to filter',
    );
  });

  it("filters on fields that are filterable but not sortable", () => {
    expect(where1("rank>=2")).toEqual({ rank: { gte: 2 } });
  });
});

describe("sieveWhere: toWhere escape hatch", () => {
  it("passes operator, raw value and case-insensitivity to toWhere and uses its fragment", () => {
    toWhereCalls.length = 0;
    expect(sieveWhere("tags==vip|null,Tags!@=*Gold", whitelist)).toEqual({
      AND: [
        {
          OR: [
            { assignments: { some: { tag: { name: { equals: "vip" } } } } },
            { assignments: { some: { tag: { name: { equals: null } } } } },
          ],
        },
        { assignments: { some: { tag: { name: { equals: "Gold" } } } } },
      ],
    });
    expect(toWhereCalls).toEqual([
      { op: "==", value: "vip", caseInsensitive: false },
      { op: "==", value: null, caseInsensitive: false },
      { op: "!@=", value: "Gold", caseInsensitive: true },
    ]);
  });

  it("still validates the value and operator against the field type", () => {
    expect(where1(`ownerId==${UUID}`)).toEqual({ owners: { some: { id: UUID } }, op: "==" });
    expect(validationFailure(() => sieveWhere("ownerId==nope", whitelist)).message).toMatch(
      /not a valid UUID/,
    );
    expect(validationFailure(() => sieveWhere("ownerId@=1", whitelist)).message).toMatch(
      /operator @= cannot/,
    );
    expect(validationFailure(() => sieveWhere("tags@=", whitelist)).message).toMatch(/empty value/);
  });
});

describe("sieveOrderBy", () => {
  it("returns undefined for empty input", () => {
    expect(sieveOrderBy(undefined, whitelist)).toBeUndefined();
    expect(sieveOrderBy(null, whitelist)).toBeUndefined();
    expect(sieveOrderBy("", whitelist)).toBeUndefined();
    expect(sieveOrderBy("  ", whitelist)).toBeUndefined();
  });

  it("sorts ascending, or descending with a leading -", () => {
    expect(sieveOrderBy("name,-createdAt", whitelist)).toEqual([{ name: "asc" }, { createdAt: "desc" }]);
  });

  it("trims, matches names case-insensitively and uses configured and nested columns", () => {
    expect(sieveOrderBy(" -CREATEDAT , description,-customerName, internalNote", whitelist)).toEqual([
      { createdAt: "desc" },
      { details: "asc" },
      { customer: { name: "desc" } },
      { internalNote: "asc" },
    ]);
  });

  it("rejects duplicate fields, also when spelled differently", () => {
    expect(validationFailure(() => sieveOrderBy("name,-createdAt,-Name", whitelist)).message).toContain(
      'names field "name" more than once',
    );
  });

  it.each([
    ["nope", /Unknown field "nope" in sortOrder "nope"/],
    ["name,-secret", /Field "secret" cannot be used to sort/],
    ["rank", /Field "rank" cannot be used to sort/],
    ["tags", /Field "tags" cannot be used to sort/],
    ["name,", /empty field name/],
    ["-", /empty field name/],
    ["--name", /"--name" is not a valid field name/],
    ["+name", /"\+name" is not a valid field name/],
  ])("rejects %s", (sortOrder, detail) => {
    expect(validationFailure(() => sieveOrderBy(sortOrder, whitelist)).message).toMatch(detail);
  });
});

describe("properties", () => {
  const escapeSpecials = (value: string) => value.replace(/[\\,|]/g, (ch) => `\\${ch}`);
  /** Also protects what escaping the three specials alone cannot: a leading `*`, the word null, a trailing blank. */
  const escapeFully = (value: string) => {
    const chars = Array.from(value);
    const mustEscape = (ch: string, i: number) =>
      /[\\,|]/.test(ch) ||
      (i === 0 && (ch === "*" || value === "null")) ||
      (i === chars.length - 1 && /\s/.test(ch));
    return chars.map((ch, i) => (mustEscape(ch, i) ? `\\${ch}` : ch)).join("");
  };

  const plainValue = fc
    .string({ unit: "binary" })
    .filter((v) => v !== "null" && !v.startsWith("*") && v.trimEnd() === v);

  it("escapes edge cases as expected", () => {
    expect(["*x", "null", "a\\ ", "x, \n"].map(escapeFully)).toEqual([
      "\\*x",
      "\\null",
      "a\\\\\\ ",
      "x\\, \\\n",
    ]);
    for (const value of ["*x", "null", "a\\ ", "x, \n", " lead"]) {
      expect(parseSieveFilter(`name==${escapeFully(value)}`)[0].values).toEqual([value]);
    }
  });

  it("round-trips any value with ,|\\ escaped", () => {
    fc.assert(
      fc.property(plainValue, (value) => {
        expect(parseSieveFilter(`name==${escapeSpecials(value)}`)[0].values).toEqual([value]);
      }),
    );
  });

  it("round-trips any value at all once its edges are escaped too", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (value) => {
        expect(parseSieveFilter(`name==${escapeFully(value)}`)).toEqual([
          { fields: ["name"], op: "==", caseInsensitive: false, values: [value] },
        ]);
        expect(where1(`name==${escapeFully(value)}`)).toEqual({ name: { equals: value } });
      }),
    );
  });

  it("round-trips lists of values and lists of terms", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(plainValue, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }),
        (terms) => {
          const filter = terms.map((values) => `name@=${values.map(escapeSpecials).join("|")}`).join(",");
          expect(parseSieveFilter(filter).map((t) => t.values)).toEqual(terms);
        },
      ),
    );
  });

  it("round-trips int4 integers and instants; integers outside int4 are refused", () => {
    fc.assert(
      fc.property(fc.integer({ min: -2_147_483_648, max: 2_147_483_647 }), (n) => {
        expect(where1(`seats==${n}`)).toEqual({ seats: { equals: n } });
      }),
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: 2_147_483_648, max: Number.MAX_SAFE_INTEGER }),
          fc.integer({ min: Number.MIN_SAFE_INTEGER, max: -2_147_483_649 }),
        ),
        (n) => {
          expect(() => where1(`seats==${n}`)).toThrow(/is not between -2147483648 and 2147483647/);
        },
      ),
    );
    const dates = fc.date({
      min: new Date("0000-01-01T00:00:00Z"),
      max: new Date("9999-12-31T23:59:59.999Z"),
      noInvalidDate: true,
    });
    fc.assert(
      fc.property(dates, (date) => {
        expect(where1(`createdAt>=${date.toISOString()}`)).toEqual({ createdAt: { gte: date } });
      }),
    );
  });

  it("either returns a where object or throws the validation error, for any input", () => {
    const grammarChars = fc.constantFrom(
      ..."nameNAMEseatsid=!<>@_-*|,\\ 1.:null".split(""),
      "null",
      "name",
      "seats",
    );
    const input = fc.oneof(fc.string({ unit: grammarChars, maxLength: 30 }), fc.string({ unit: "binary" }));
    fc.assert(
      fc.property(input, (filter) => {
        for (const run of [() => sieveWhere(filter, whitelist), () => sieveOrderBy(filter, whitelist)]) {
          try {
            run();
          } catch (error) {
            expect(error).toBeInstanceOf(AppError);
            expect((error as AppError).codeName).toBe("license.validation_error");
          }
        }
      }),
    );
  });
});
