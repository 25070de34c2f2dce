import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, testDb, type TestTenant } from "../../helpers/api.ts";
import { activateLicense } from "../../helpers/runtime.ts";
import { trpcMutation, trpcQuery } from "../../helpers/ui-session.ts";
import { staffCookie } from "../../helpers/staff-session.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import type { StaffRole } from "../../../server/domain/identity/staff-roles/staff-roles.ts";

/**
 * A record's History (audit.history): its audit rows and the domain events its changes emitted,
 * in one list, newest first, each in plain words, over HTTP against the real server. Another
 * tenant's record is not found, even where that tenant holds rows naming the same id; the roles
 * that read the audit trail read it, the others are refused.
 */

const PASSWORD = "Entity-history-pass-1";
const ADMIN = "admin@entity-history.example.com";
let tenant: TestTenant;
let other: TestTenant;
const cookies = {} as Record<StaffRole | "otherAdmin", string>;
let entitlementId: string;
let otherEntitlementId: string;

type Item = {
  kind: "change" | "event";
  occurredAt: string;
  sentence: string;
  actor: string | null;
  via: string;
  changes: Record<string, { from?: unknown; to?: unknown }> | null;
};
type Page = {
  items: Item[];
  pageNumber: number;
  totalCount: number;
  totalPages: number;
  hasNextPage: boolean;
};

const history = (input: Record<string, unknown>, cookie: string) =>
  trpcQuery<Page>("audit.history", { entityKind: "entitlement", entityId: entitlementId, ...input }, cookie);
const said = (items: Item[] | undefined) =>
  items?.map((i) => ({ kind: i.kind, sentence: i.sentence, actor: i.actor, via: i.via }));

async function mutate<T>(path: string, input: unknown, cookie: string): Promise<T> {
  const res = await trpcMutation<T>(path, input, cookie);
  expect(res.status, JSON.stringify(res.error)).toBe(200);
  return res.data as T;
}

const createLicense = (name: string, cookie: string) =>
  mutate<{ id: string }>(
    "entitlements.create",
    {
      name,
      status: "Published",
      claimBasedActivation: {
        leaseTime: "PT1H",
        gracePeriod: "P1D",
        numberOfSeats: 5,
        isFloatingLicense: false,
      },
    },
    cookie,
  );

beforeAll(async () => {
  tenant = await createTestTenant("Entity history");
  other = await createTestTenant("Entity history other");
  cookies.admin = await staffCookie(tenant, "admin", ADMIN, PASSWORD);
  cookies["read-only"] = await staffCookie(
    tenant,
    "read-only",
    "reader@entity-history.example.com",
    PASSWORD,
  );
  cookies.support = await staffCookie(tenant, "support", "support@entity-history.example.com", PASSWORD);
  cookies["catalog-editor"] = await staffCookie(
    tenant,
    "catalog-editor",
    "editor@entity-history.example.com",
    PASSWORD,
  );
  cookies.otherAdmin = await staffCookie(other, "admin", "admin@entity-history-other.example.com", PASSWORD);

  // In this order: created (audit), a device activates (events), staff release its seat (event),
  // staff rename the license (audit).
  entitlementId = (await createLicense("Review license", cookies.admin)).id;
  const issued = await mutate<{ codes: { code: string }[] }>(
    "licensing.issueActivationCodes",
    { entitlementId, count: 1 },
    cookies.admin,
  );
  const activation = await activateLicense({
    activationCode: issued.codes[0].code,
    fingerprint: `history-${randomUUID()}`,
    deviceName: "Review laptop",
  });
  expect(activation.status, activation.text).toBe(200);
  await mutate("sessions.release", { sessionId: activation.body.sessionId }, cookies.admin);
  await mutate(
    "entitlements.update",
    { id: entitlementId, edit: { name: "Review license 2" } },
    cookies.admin,
  );

  otherEntitlementId = (await createLicense("Their license", cookies.otherAdmin)).id;
  // The other tenant holds rows naming this tenant's entitlement id: never part of its history.
  const theirs = tenantDb(testDb(), other.tenantId);
  await theirs.auditEvent.create({
    data: {
      tenantId: other.tenantId,
      actorKind: "system",
      actorId: "test",
      source: "cli",
      operation: "forged",
      action: "entitlement.deleted",
      entityKind: "entitlement",
      entityId: entitlementId,
    },
  });
  await theirs.webhookEnvelope.create({
    data: {
      id: randomUUID(),
      tenantId: other.tenantId,
      type: "Entitlement.SeatActivated",
      subject: `entitlements/${entitlementId}`,
      entityKind: "entitlement",
      entityId: entitlementId,
      eventVersion: 1,
      time: new Date(),
      payload: JSON.stringify({ type: "Entitlement.SeatActivated", data: { entitlementId } }),
      fannedOutAt: new Date(),
    },
  });
});

describe("audit.history: a record's changes and events in one list", () => {
  it("lists audit rows and domain events newest first, in plain words", async () => {
    const res = await history({ pageSize: 20 }, cookies.admin);
    expect(res.status, JSON.stringify(res.error)).toBe(200);
    expect(said(res.data?.items)).toEqual([
      { kind: "change", sentence: "Changed name", actor: ADMIN, via: "Back office" },
      { kind: "event", sentence: "Seat released on Review laptop", actor: null, via: "Event" },
      { kind: "event", sentence: "Seat activated on Review laptop", actor: null, via: "Event" },
      { kind: "event", sentence: "License activated on Review laptop", actor: null, via: "Event" },
      { kind: "change", sentence: "Created", actor: ADMIN, via: "Back office" },
    ]);
    expect(res.data?.items[0].changes?.name).toEqual({ from: "Review license", to: "Review license 2" });
    expect(res.data?.totalCount).toBe(5);
    const times = res.data!.items.map((i) => Date.parse(i.occurredAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it("pages through the one list", async () => {
    const res = await history({ pageSize: 2, pageNumber: 2 }, cookies.admin);
    expect(res.status).toBe(200);
    expect(res.data?.items.map((i) => i.sentence)).toEqual([
      "Seat activated on Review laptop",
      "License activated on Review laptop",
    ]);
    expect(res.data).toMatchObject({ pageNumber: 2, totalCount: 5, totalPages: 3, hasNextPage: true });
    const last = await history({ pageSize: 2, pageNumber: 3 }, cookies.admin);
    expect(last.data?.items.map((i) => i.sentence)).toEqual(["Created"]);
    const past = await history({ pageSize: 2, pageNumber: 4 }, cookies.admin);
    expect(past.data).toMatchObject({ items: [], totalCount: 5, hasNextPage: false });
  });

  it("finds the record by id alone when the page does not name its kind", async () => {
    const res = await trpcQuery<Page>(
      "audit.history",
      { entityId: entitlementId, pageSize: 1 },
      cookies.admin,
    );
    expect(res.status).toBe(200);
    expect(res.data?.items.map((i) => i.sentence)).toEqual(["Changed name"]);
    expect(res.data?.totalCount).toBe(5);
  });

  it("another tenant's record is not found, either way round, and its rows naming the id stay out", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ entityId: otherEntitlementId }, cookies.admin],
      [{ entityId: otherEntitlementId, entityKind: undefined }, cookies.admin],
      [{}, cookies.otherAdmin],
      [{ entityKind: undefined }, cookies.otherAdmin],
    ];
    for (const [input, cookie] of cases) {
      const res = await history(input, cookie);
      expect(res.status, JSON.stringify(input)).toBe(404);
      expect(res.error?.data?.code).toBe("NOT_FOUND");
    }
    const mine = await history({}, cookies.admin);
    expect(mine.data?.totalCount).toBe(5);
    expect(mine.data?.items.map((i) => i.sentence)).not.toContain("Deleted");
  });

  it("read-only staff read it; roles that cannot read the audit trail are refused", async () => {
    const reader = await history({}, cookies["read-only"]);
    expect(reader.status).toBe(200);
    expect(reader.data?.items.map((i) => i.sentence)).toEqual([
      "Changed name",
      "Seat released on Review laptop",
      "Seat activated on Review laptop",
      "License activated on Review laptop",
      "Created",
    ]);
    for (const role of ["support", "catalog-editor"] as const) {
      const res = await history({}, cookies[role]);
      expect(res.status, role).toBe(403);
      expect(res.error?.data?.code, role).toBe("FORBIDDEN");
    }
  });
});
