import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, createTestTenant, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { insertEntitlement } from "../../helpers/licensing-fixtures.ts";
import { trpcMutation, trpcQuery } from "../../helpers/ui-session.ts";
import { staffCookie } from "../../helpers/staff-session.ts";
import { parseCsv } from "../../helpers/csv.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import type { StaffRole } from "../../../server/domain/identity/staff-roles/staff-roles.ts";

/**
 * The entitlements list's bulk actions (issue 23): "Extend selected" (entitlements.renewMany) over
 * HTTP as staff of each role would call it, each row renewed as the single Renew does with its own
 * outcome; another tenant's id is not found and renews nothing; bad input is a 400 with a plain
 * sentence; a refused call changes nothing. And "Export selection": the list's CSV of the chosen
 * rows only.
 */

const PASSWORD = "Bulk-renew-pass-1";
let tenant: TestTenant;
let other: TestTenant;
const cookies = {} as Record<StaffRole | "otherAdmin", string>;

const staff = (t: TestTenant, role: StaffRole, email: string) => staffCookie(t, role, email, PASSWORD);

const db = (t: TestTenant) => tenantDb(testDb(), t.tenantId);
const endOf = async (t: TestTenant, id: string) =>
  (await db(t).entitlement.findUniqueOrThrow({ where: { id } })).expirationDateTime?.toISOString() ?? null;

type Outcome = {
  id: string;
  name: string;
  outcome: string;
  expirationDateTime: string | null;
  refusal: { codeName: string; status: number; detail: string } | null;
};
type Refusal = { status: number; error?: { message: string; data?: { code?: string; problem?: unknown } } };
const codeOf = (r: Refusal) => r.error?.data?.code;
const codeNameOf = (r: Refusal) => (r.error?.data?.problem as { codeName?: string } | null)?.codeName;

beforeAll(async () => {
  tenant = await createTestTenant("Bulk renew");
  other = await createTestTenant("Bulk renew other");
  cookies.admin = await staff(tenant, "admin", "admin@bulk-renew.example.com");
  cookies["catalog-editor"] = await staff(tenant, "catalog-editor", "editor@bulk-renew.example.com");
  cookies.support = await staff(tenant, "support", "support@bulk-renew.example.com");
  cookies["read-only"] = await staff(tenant, "read-only", "reader@bulk-renew.example.com");
  cookies.otherAdmin = await staff(other, "admin", "admin@bulk-renew-other.example.com");
});

describe("entitlements.renewMany (Extend selected on the entitlements list)", () => {
  it("an admin extends by a year from each one's own end; a Draft and a never-ending one are refused in plain words, the rest renewed", async () => {
    const march = await insertEntitlement(tenant, {
      name: "Bulk March",
      expirationDateTime: "2031-03-01T12:00:00.000Z",
    });
    const january = await insertEntitlement(tenant, {
      name: "Bulk January",
      expirationDateTime: "2031-01-31T08:30:00.000Z",
    });
    const draft = await insertEntitlement(tenant, {
      name: "Bulk Draft",
      status: "Draft",
      expirationDateTime: "2031-05-01T00:00:00.000Z",
    });
    const forever = await insertEntitlement(tenant, { name: "Bulk Forever" });
    const res = await trpcMutation<{ results: Outcome[] }>(
      "entitlements.renewMany",
      {
        ids: [march.id, draft.id, january.id, forever.id],
        extension: { kind: "by", count: 1, unit: "years" },
      },
      cookies.admin,
    );
    expect(res.status, JSON.stringify(res.error)).toBe(200);
    expect(res.data?.results).toEqual([
      {
        id: march.id,
        name: "Bulk March",
        outcome: "Renewed",
        expirationDateTime: "2032-03-01T12:00:00.000Z",
        refusal: null,
      },
      {
        id: draft.id,
        name: "Bulk Draft",
        outcome: "Refused",
        expirationDateTime: "2031-05-01T00:00:00.000Z",
        refusal: {
          codeName: "entitlement.not_renewable",
          status: 400,
          detail: "A Draft entitlement is not in force; publish it first.",
        },
      },
      {
        id: january.id,
        name: "Bulk January",
        outcome: "Renewed",
        expirationDateTime: "2032-01-31T08:30:00.000Z",
        refusal: null,
      },
      {
        id: forever.id,
        name: "Bulk Forever",
        outcome: "Refused",
        expirationDateTime: null,
        refusal: {
          codeName: "entitlement.not_renewable",
          status: 400,
          detail: "The entitlement never expires; there is nothing to renew.",
        },
      },
    ]);
    expect(await endOf(tenant, march.id)).toBe("2032-03-01T12:00:00.000Z");
    expect(await endOf(tenant, january.id)).toBe("2032-01-31T08:30:00.000Z");
    expect(await endOf(tenant, draft.id)).toBe("2031-05-01T00:00:00.000Z");
    expect(await endOf(tenant, forever.id)).toBeNull();
    // Each renewal is recorded as the single Renew records it: a renewal row and an audit row.
    const renewals = await db(tenant).entitlementRenewal.findMany({
      where: { entitlementId: { in: [march.id, january.id, draft.id, forever.id] } },
      orderBy: { expirationDateTime: "asc" },
    });
    expect(
      renewals.map((r) => [
        r.entitlementId,
        r.previousExpirationDateTime.toISOString(),
        r.expirationDateTime.toISOString(),
      ]),
    ).toEqual([
      [january.id, "2031-01-31T08:30:00.000Z", "2032-01-31T08:30:00.000Z"],
      [march.id, "2031-03-01T12:00:00.000Z", "2032-03-01T12:00:00.000Z"],
    ]);
    const history = await trpcQuery<{
      items: { operation: string; changes: Record<string, { to?: unknown }> }[];
    }>(
      "audit.list",
      { pageNumber: 1, pageSize: 20, filter: `entityId==${march.id}`, sortOrder: "-occurredAt" },
      cookies.admin,
    );
    const renewal = history.data?.items.find((e) => e.operation === "entitlements.renewMany");
    expect(renewal?.changes.expirationDateTime.to).toBe("2032-03-01T12:00:00+00:00");
  });

  it("one end date for all keeps each one's time of day; an end already there is unchanged, an earlier one refused", async () => {
    const noon = await insertEntitlement(tenant, {
      name: "Bulk Noon",
      expirationDateTime: "2031-03-01T12:00:00.000Z",
    });
    const evening = await insertEntitlement(tenant, {
      name: "Bulk Evening",
      expirationDateTime: "2031-06-30T18:45:00.000Z",
    });
    const there = await insertEntitlement(tenant, {
      name: "Bulk There",
      expirationDateTime: "2031-12-12T09:00:00.000Z",
    });
    const later = await insertEntitlement(tenant, {
      name: "Bulk Later",
      expirationDateTime: "2033-01-01T00:00:00.000Z",
    });
    const res = await trpcMutation<{ results: Outcome[] }>(
      "entitlements.renewMany",
      { ids: [noon.id, evening.id, there.id, later.id], extension: { kind: "until", date: "2031-12-12" } },
      cookies.admin,
    );
    expect(res.status, JSON.stringify(res.error)).toBe(200);
    expect(
      res.data?.results.map((r) => [r.name, r.outcome, r.expirationDateTime, r.refusal?.codeName ?? null]),
    ).toEqual([
      ["Bulk Noon", "Renewed", "2031-12-12T12:00:00.000Z", null],
      ["Bulk Evening", "Renewed", "2031-12-12T18:45:00.000Z", null],
      ["Bulk There", "Unchanged", "2031-12-12T09:00:00.000Z", null],
      ["Bulk Later", "Refused", "2033-01-01T00:00:00.000Z", "entitlement.renewal_shortens"],
    ]);
    expect(await endOf(tenant, later.id)).toBe("2033-01-01T00:00:00.000Z");
    const rest = await request("GET", `/api/v1/provision/admin/entitlements/${evening.id}`, {
      token: await tenant.token("provision.entitlement-adm.read"),
    });
    expect(rest.status).toBe(200);
    expect(rest.body.expirationDateTime).toBe("2031-12-12T18:45:00.000Z");
  });

  it("catalog editors, support and read-only staff are refused; nothing is renewed", async () => {
    const entitlement = await insertEntitlement(tenant, { expirationDateTime: "2031-03-01T12:00:00.000Z" });
    const input = { ids: [entitlement.id], extension: { kind: "by", count: 1, unit: "years" } };
    for (const role of ["catalog-editor", "support", "read-only"] as const) {
      const refused = await trpcMutation("entitlements.renewMany", input, cookies[role]);
      expect(refused.status, role).toBe(403);
      expect(codeNameOf(refused)).toBe("staff.permission_denied");
    }
    expect(await endOf(tenant, entitlement.id)).toBe("2031-03-01T12:00:00.000Z");
    expect(await db(tenant).entitlementRenewal.count({ where: { entitlementId: entitlement.id } })).toBe(0);
  });

  it("another tenant's entitlement is not found, alone or among this tenant's, and nothing is renewed", async () => {
    const mine = await insertEntitlement(tenant, { expirationDateTime: "2031-03-01T12:00:00.000Z" });
    const theirs = await insertEntitlement(other, { expirationDateTime: "2031-03-01T12:00:00.000Z" });
    const extension = { kind: "by", count: 2, unit: "months" };
    const foreign = await trpcMutation(
      "entitlements.renewMany",
      { ids: [mine.id], extension },
      cookies.otherAdmin,
    );
    expect(foreign.status).toBe(404);
    expect(codeOf(foreign)).toBe("NOT_FOUND");
    const mixed = await trpcMutation(
      "entitlements.renewMany",
      { ids: [mine.id, theirs.id], extension },
      cookies.admin,
    );
    expect(mixed.status).toBe(404);
    expect(codeOf(mixed)).toBe("NOT_FOUND");
    expect(await endOf(tenant, mine.id)).toBe("2031-03-01T12:00:00.000Z");
    expect(await endOf(other, theirs.id)).toBe("2031-03-01T12:00:00.000Z");
    expect(await db(tenant).entitlementRenewal.count({ where: { entitlementId: mine.id } })).toBe(0);
    expect(await db(other).entitlementRenewal.count()).toBe(0);
  });

  it("no id, more than 100, a repeated id, a period of 0 and a malformed day are plain 400s; nothing is renewed", async () => {
    const entitlement = await insertEntitlement(tenant, { expirationDateTime: "2031-03-01T12:00:00.000Z" });
    const by = { kind: "by", count: 1, unit: "years" };
    const many = Array.from(
      { length: 101 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    );
    const cases: [unknown, string][] = [
      [{ ids: [], extension: by }, "Invalid input: ids: Choose at least one entitlement."],
      [{ ids: many, extension: by }, "Invalid input: ids: Renew at most 100 entitlements at a time."],
      [
        { ids: [entitlement.id, entitlement.id], extension: by },
        "Invalid input: ids: Choose each entitlement once.",
      ],
      [
        { ids: [entitlement.id], extension: { kind: "by", count: 0, unit: "days" } },
        "Invalid input: extension.count: Extend by at least 1.",
      ],
      [
        { ids: [entitlement.id], extension: { kind: "until", date: "12/12/2031" } },
        "Invalid input: extension.date: Give the new end date as a day (yyyy-mm-dd).",
      ],
    ];
    for (const [input, message] of cases) {
      const bad = await trpcMutation("entitlements.renewMany", input, cookies.admin);
      expect(bad.status, message).toBe(400);
      expect(codeOf(bad)).toBe("BAD_REQUEST");
      expect(bad.error?.message).toBe(message);
    }
    expect(await endOf(tenant, entitlement.id)).toBe("2031-03-01T12:00:00.000Z");
    expect(await db(tenant).entitlementRenewal.count({ where: { entitlementId: entitlement.id } })).toBe(0);
  });
});

describe("Export selection (the entitlements CSV of the chosen rows)", () => {
  it("holds exactly the chosen entitlements, with the list export's columns", async () => {
    const first = await insertEntitlement(tenant, { name: "Selected First" });
    const second = await insertEntitlement(tenant, { name: "Selected Second" });
    await insertEntitlement(tenant, { name: "Selected Not" });
    const filter = encodeURIComponent(`id==${first.id}|${second.id}`);
    const res = await fetch(`${baseUrl()}/admin/export/entitlements?filter=${filter}&sortOrder=name`, {
      headers: { cookie: cookies.support },
    });
    expect(res.status).toBe(200);
    const [header, ...rows] = parseCsv(await res.text());
    const all = await fetch(`${baseUrl()}/admin/export/entitlements`, {
      headers: { cookie: cookies.support },
    });
    expect(parseCsv(await all.text())[0]).toEqual(header);
    const names = rows.map((r) => r[header.indexOf("name")]);
    expect(names).toEqual(["Selected First", "Selected Second"]);
  });
});
