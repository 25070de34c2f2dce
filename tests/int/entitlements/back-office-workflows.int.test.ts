import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { insertEntitlement, insertSession } from "../../helpers/licensing-fixtures.ts";
import { trpcMutation, trpcQuery } from "../../helpers/ui-session.ts";
import { staffCookie } from "../../helpers/staff-session.ts";
import { systemContext } from "../../../server/domain/context.ts";
import { createOffer } from "../../../server/domain/entitlements/offers/write-offer.ts";
import { ZOfferWriteRequest } from "../../../server/domain/entitlements/offers/offer.schemas.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";
import type { StaffRole } from "../../../server/domain/identity/staff-roles/staff-roles.ts";

/**
 * The back office's new procedures (issue 23): the offer page's edit and clone, the entitlement
 * workspace's renew, releasing one session, the fleet of devices and deactivating one device. Each
 * over HTTP as staff of each role would call it: allowed where the roles table says, refused 403
 * otherwise; another tenant's id is not found; bad input is a 400 with a plain sentence; and a
 * refused call changes nothing.
 */

const PASSWORD = "Back-office-pass-1";
let tenant: TestTenant;
let other: TestTenant;
const cookies = {} as Record<StaffRole | "otherAdmin", string>;

const staff = (t: TestTenant, role: StaffRole, email: string) => staffCookie(t, role, email, PASSWORD);

const db = (t: TestTenant) => tenantDb(testDb(), t.tenantId);

async function draftOffer(t: TestTenant, name: string) {
  return createOffer(
    systemContext(testDb(), t.tenantId, "test"),
    ZOfferWriteRequest.parse({
      name,
      validityDays: 365,
      claimBasedActivation: { numberOfSeats: 3, leaseTime: "PT2H", gracePeriod: "P2D" },
      allowAnonymousTry: true,
      tags: [],
    }),
  );
}

type Refusal = { status: number; error?: { message: string; data?: { code?: string; problem?: unknown } } };
const codeOf = (r: Refusal) => r.error?.data?.code;
const codeNameOf = (r: Refusal) => (r.error?.data?.problem as { codeName?: string } | null)?.codeName;

beforeAll(async () => {
  tenant = await createTestTenant("Back office");
  other = await createTestTenant("Back office other");
  cookies.admin = await staff(tenant, "admin", "admin@back-office.example.com");
  cookies.support = await staff(tenant, "support", "support@back-office.example.com");
  cookies["read-only"] = await staff(tenant, "read-only", "reader@back-office.example.com");
  cookies.otherAdmin = await staff(other, "admin", "admin@back-office-other.example.com");
});

describe("entitlements.updateOffer (the offer page's edit)", () => {
  it("an admin edits a Draft offer's name, seats and switches; the rest stays", async () => {
    const offer = await draftOffer(tenant, "Studio Draft");
    const res = await trpcMutation<{ name: string; claimBasedActivation: Record<string, unknown> }>(
      "entitlements.updateOffer",
      {
        id: offer.id,
        edit: {
          name: "Studio Draft v2",
          claimBasedActivation: { numberOfSeats: 10, leaseTime: "PT2H", gracePeriod: "P2D" },
        },
      },
      cookies.admin,
    );
    expect(res.status, JSON.stringify(res.error)).toBe(200);
    const stored = await db(tenant).offer.findUniqueOrThrow({ where: { id: offer.id } });
    expect(stored.name).toBe("Studio Draft v2");
    expect((stored.claimBasedActivation as { numberOfSeats: number }).numberOfSeats).toBe(10);
    expect(stored.validityDays).toBe(365);
    expect(stored.allowAnonymousTry).toBe(true);
    expect(stored.status).toBe("Draft");
  });

  it("support and read-only staff are refused; another tenant's offer is not found; bad input is a plain 400; nothing changes", async () => {
    const offer = await draftOffer(tenant, "Studio Guarded");
    for (const role of ["support", "read-only"] as const) {
      const refused = await trpcMutation(
        "entitlements.updateOffer",
        { id: offer.id, edit: { name: "X" } },
        cookies[role],
      );
      expect(refused.status).toBe(403);
      expect(codeNameOf(refused)).toBe("staff.permission_denied");
    }
    const foreign = await trpcMutation(
      "entitlements.updateOffer",
      { id: offer.id, edit: { name: "Taken over" } },
      cookies.otherAdmin,
    );
    expect(foreign.status).toBe(404);
    expect(codeOf(foreign)).toBe("NOT_FOUND");
    const bad = await trpcMutation(
      "entitlements.updateOffer",
      { id: offer.id, edit: { name: "" } },
      cookies.admin,
    );
    expect(bad.status).toBe(400);
    expect(codeOf(bad)).toBe("BAD_REQUEST");
    expect(bad.error?.message).toContain("A name cannot be empty.");
    const stored = await db(tenant).offer.findUniqueOrThrow({ where: { id: offer.id } });
    expect(stored.name).toBe("Studio Guarded");
    expect(stored.revisionNumber).toBe(offer.revisionNumber);
  });
});

describe("entitlements.cloneOffer", () => {
  it("makes a new Draft named “… (copy)” with the same settings, in any status of the original", async () => {
    const offer = await draftOffer(tenant, "Studio Source");
    const published = await trpcMutation("entitlements.publishOffer", { id: offer.id }, cookies.admin);
    expect(published.status).toBe(200);
    const res = await trpcMutation<{ id: string; name: string; status: string; version: number }>(
      "entitlements.cloneOffer",
      { id: offer.id },
      cookies.admin,
    );
    expect(res.status, JSON.stringify(res.error)).toBe(200);
    expect(res.data).toMatchObject({ name: "Studio Source (copy)", status: "Draft", version: 1 });
    const copy = await db(tenant).offer.findUniqueOrThrow({ where: { id: res.data!.id } });
    expect(copy.id).not.toBe(offer.id);
    expect(copy.validityDays).toBe(365);
    expect(copy.allowAnonymousTry).toBe(true);
    expect(copy.claimBasedActivation).toMatchObject({
      numberOfSeats: 3,
      leaseTime: "PT2H",
      gracePeriod: "P2D",
    });
    const original = await db(tenant).offer.findUniqueOrThrow({ where: { id: offer.id } });
    expect(original.status).toBe("Published");
  });

  it("read-only staff are refused, another tenant's offer is not found, an empty name is a plain 400; no offer is made", async () => {
    const offer = await draftOffer(tenant, "Studio Uncloned");
    const before = await db(tenant).offer.count();
    const refused = await trpcMutation("entitlements.cloneOffer", { id: offer.id }, cookies["read-only"]);
    expect(refused.status).toBe(403);
    const supportRefused = await trpcMutation("entitlements.cloneOffer", { id: offer.id }, cookies.support);
    expect(supportRefused.status).toBe(403);
    const foreign = await trpcMutation("entitlements.cloneOffer", { id: offer.id }, cookies.otherAdmin);
    expect(foreign.status).toBe(404);
    const bad = await trpcMutation("entitlements.cloneOffer", { id: offer.id, name: "  " }, cookies.admin);
    expect(bad.status).toBe(400);
    expect(bad.error?.message).toContain("A name cannot be empty.");
    const notAnId = await trpcMutation("entitlements.cloneOffer", { id: "studio" }, cookies.admin);
    expect(notAnId.status).toBe(400);
    expect(await db(tenant).offer.count()).toBe(before);
    expect(await db(other).offer.count()).toBe(0);
  });
});

describe("entitlements.renew (Renew/extend on the entitlement workspace)", () => {
  it("an admin renews to a later end: REST reads the new end and the audit trail records it", async () => {
    const entitlement = await insertEntitlement(tenant, { expirationDateTime: "2031-03-01T12:00:00.000Z" });
    const res = await trpcMutation(
      "entitlements.renew",
      { id: entitlement.id, renewal: { expirationDateTime: "2032-03-01T12:00:00.000Z" } },
      cookies.admin,
    );
    expect(res.status, JSON.stringify(res.error)).toBe(200);
    const rest = await request("GET", `/api/v1/provision/admin/entitlements/${entitlement.id}`, {
      token: await tenant.token("provision.entitlement-adm.read"),
    });
    expect(rest.status).toBe(200);
    expect(rest.body.expirationDateTime).toBe("2032-03-01T12:00:00.000Z");
    const history = await trpcQuery<{
      items: { operation: string; changes: Record<string, { to?: unknown }> }[];
    }>(
      "audit.list",
      { pageNumber: 1, pageSize: 20, filter: `entityId==${entitlement.id}`, sortOrder: "-occurredAt" },
      cookies.admin,
    );
    const renewal = history.data?.items.find((e) => e.operation === "entitlements.renew");
    expect(renewal?.changes.expirationDateTime.to).toBe("2032-03-01T12:00:00+00:00");
  });

  it("support and read-only are refused, another tenant's entitlement is not found, a malformed date and an earlier end are refused; the end stays", async () => {
    const entitlement = await insertEntitlement(tenant, { expirationDateTime: "2031-03-01T12:00:00.000Z" });
    const renewal = { expirationDateTime: "2033-01-01T00:00:00.000Z" };
    for (const role of ["support", "read-only"] as const) {
      const refused = await trpcMutation(
        "entitlements.renew",
        { id: entitlement.id, renewal },
        cookies[role],
      );
      expect(refused.status).toBe(403);
    }
    const foreign = await trpcMutation(
      "entitlements.renew",
      { id: entitlement.id, renewal },
      cookies.otherAdmin,
    );
    expect(foreign.status).toBe(404);
    const bad = await trpcMutation(
      "entitlements.renew",
      { id: entitlement.id, renewal: { expirationDateTime: "next year" } },
      cookies.admin,
    );
    expect(bad.status).toBe(400);
    expect(bad.error?.message).toMatch(/^Invalid input: renewal\.expirationDateTime: /);
    const shorter = await trpcMutation(
      "entitlements.renew",
      { id: entitlement.id, renewal: { expirationDateTime: "2030-01-01T00:00:00.000Z" } },
      cookies.admin,
    );
    expect(shorter.status).toBe(400);
    expect(codeNameOf(shorter)).toBe("entitlement.renewal_shortens");
    const stored = await db(tenant).entitlement.findUniqueOrThrow({ where: { id: entitlement.id } });
    expect(stored.expirationDateTime?.toISOString()).toBe("2031-03-01T12:00:00.000Z");
    expect(await db(tenant).entitlementRenewal.count({ where: { entitlementId: entitlement.id } })).toBe(0);
  });
});

describe("sessions.release (one session from the Sessions list or the entitlement)", () => {
  it("support releases one live session: its seat is free at once, its sibling keeps running", async () => {
    const entitlement = await insertEntitlement(tenant, { claimBasedActivation: { numberOfSeats: 2 } });
    const first = await insertSession(tenant, entitlement.id, { fingerprint: "release-a" });
    const second = await insertSession(tenant, entitlement.id, { fingerprint: "release-b" });
    const res = await trpcMutation("sessions.release", { sessionId: first.session.id }, cookies.support);
    expect(res.status, JSON.stringify(res.error)).toBe(200);
    const released = await db(tenant).licenseSession.findUniqueOrThrow({ where: { id: first.session.id } });
    expect(released.revocationReason).toBe("Released");
    expect(released.revokedAt).not.toBeNull();
    const sibling = await db(tenant).licenseSession.findUniqueOrThrow({ where: { id: second.session.id } });
    expect(sibling.revokedAt).toBeNull();
    const again = await trpcMutation("sessions.release", { sessionId: first.session.id }, cookies.admin);
    expect(again.status).toBe(409);
    expect(codeNameOf(again)).toBe("license.no_active_session");
  });

  it("read-only staff are refused, another tenant's session is not found, a non-id is a plain 400; the session keeps running", async () => {
    const entitlement = await insertEntitlement(tenant);
    const { session } = await insertSession(tenant, entitlement.id);
    const refused = await trpcMutation("sessions.release", { sessionId: session.id }, cookies["read-only"]);
    expect(refused.status).toBe(403);
    const foreign = await trpcMutation("sessions.release", { sessionId: session.id }, cookies.otherAdmin);
    expect(foreign.status).toBe(404);
    expect(codeOf(foreign)).toBe("NOT_FOUND");
    const bad = await trpcMutation("sessions.release", { sessionId: "laptop" }, cookies.admin);
    expect(bad.status).toBe(400);
    expect(bad.error?.message).toBe("Invalid input: sessionId: Invalid UUID");
    const stored = await db(tenant).licenseSession.findUniqueOrThrow({ where: { id: session.id } });
    expect(stored.revokedAt).toBeNull();
  });
});

describe("licensing.listAllDevices and licensing.deactivateDevice (the fleet of devices)", () => {
  it("the fleet lists this tenant's devices only, found by name; read-only staff may read it", async () => {
    const entitlement = await insertEntitlement(tenant);
    const { device } = await insertSession(tenant, entitlement.id, { fingerprint: "fleet-list" });
    await db(tenant).device.update({ where: { id: device.id }, data: { deviceName: "Render node 7" } });
    const foreignEntitlement = await insertEntitlement(other);
    const foreign = await insertSession(other, foreignEntitlement.id, { fingerprint: "fleet-foreign" });
    await db(other).device.update({
      where: { id: foreign.device.id },
      data: { deviceName: "Render node 7" },
    });
    const res = await trpcQuery<{ items: { id: string; deviceName: string }[]; totalCount: number }>(
      "licensing.listAllDevices",
      { pageNumber: 1, pageSize: 20, filter: "deviceName@=*render node" },
      cookies["read-only"],
    );
    expect(res.status, JSON.stringify(res.error)).toBe(200);
    expect(res.data?.items.map((d) => d.id)).toEqual([device.id]);
    expect(res.data?.totalCount).toBe(1);
  });

  it("support deactivates one device: its sessions end as a reset, the transfer count goes up, its sibling stays active", async () => {
    const entitlement = await insertEntitlement(tenant);
    const laptop = await insertSession(tenant, entitlement.id, { fingerprint: "deactivate-laptop" });
    const desktop = await insertSession(tenant, entitlement.id, { fingerprint: "deactivate-desktop" });
    const res = await trpcMutation<{ devicesReset: number; transferCount: number }>(
      "licensing.deactivateDevice",
      { entitlementId: entitlement.id, deviceId: laptop.device.id },
      cookies.support,
    );
    expect(res.status, JSON.stringify(res.error)).toBe(200);
    expect(res.data).toMatchObject({ devicesReset: 1, transferCount: 1 });
    const ended = await db(tenant).licenseSession.findUniqueOrThrow({ where: { id: laptop.session.id } });
    expect(ended.revocationReason).toBe("DeviceReset");
    const sibling = await db(tenant).licenseSession.findUniqueOrThrow({ where: { id: desktop.session.id } });
    expect(sibling.revokedAt).toBeNull();
  });

  it("read-only staff are refused, another tenant's device is not found, a device of another entitlement is not found, a non-id is a plain 400; nothing changes", async () => {
    const entitlement = await insertEntitlement(tenant);
    const elsewhere = await insertEntitlement(tenant);
    const { device, session } = await insertSession(tenant, entitlement.id, {
      fingerprint: "deactivate-guarded",
    });
    const input = { entitlementId: entitlement.id, deviceId: device.id };
    const refused = await trpcMutation("licensing.deactivateDevice", input, cookies["read-only"]);
    expect(refused.status).toBe(403);
    const foreign = await trpcMutation("licensing.deactivateDevice", input, cookies.otherAdmin);
    expect(foreign.status).toBe(404);
    const mismatched = await trpcMutation(
      "licensing.deactivateDevice",
      { entitlementId: elsewhere.id, deviceId: device.id },
      cookies.admin,
    );
    expect(mismatched.status).toBe(404);
    expect(codeNameOf(mismatched)).toBe("license.not_found");
    const bad = await trpcMutation(
      "licensing.deactivateDevice",
      { entitlementId: entitlement.id, deviceId: "laptop" },
      cookies.admin,
    );
    expect(bad.status).toBe(400);
    expect(bad.error?.message).toBe("Invalid input: deviceId: Invalid UUID");
    const stored = await db(tenant).licenseSession.findUniqueOrThrow({ where: { id: session.id } });
    expect(stored.revokedAt).toBeNull();
    for (const id of [entitlement.id, elsewhere.id]) {
      const row = await db(tenant).entitlement.findUniqueOrThrow({ where: { id } });
      expect(row.transferCount).toBe(0);
    }
  });
});
