import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { ALL_PROVISION_SCOPES, PROVISION, activatedLicense, made } from "../../helpers/tenant-world.ts";
import { sessionCall } from "../../helpers/runtime.ts";
import { trpcMutation, uiSignIn } from "../../helpers/ui-session.ts";
import { runAudited } from "../../../server/db/audit-context.ts";
import { tenantDb } from "../../../server/db/tenant-db.ts";

const AUDIT = `${PROVISION}admin/audit-events`;

let tenant: TestTenant;
let other: TestTenant;
let token: string;
let auditToken: string;

const rowsOf = (tenantId: string, where: Record<string, unknown> = {}) =>
  testDb().auditEvent.findMany({ where: { tenantId, ...where }, orderBy: { occurredAt: "asc" } });

beforeAll(async () => {
  tenant = await createTestTenant("Audit");
  other = await createTestTenant("Audit other");
  token = await tenant.token(ALL_PROVISION_SCOPES);
  auditToken = await tenant.token(["provision.audit.read"]);
});

describe("audit trail", () => {
  it("a REST mutation writes who, what, when, the correlation id and a field diff in its own transaction", async () => {
    const correlationId = `audit-${randomUUID()}`;
    const tag = made(
      await request("POST", `${PROVISION}admin/tags`, {
        token,
        body: { name: "audit-red", scope: "Product" },
        headers: { "x-correlation-id": correlationId },
      }),
    );
    made(
      await request("PATCH", `${PROVISION}admin/tags/${tag.id}`, {
        token,
        body: { name: "audit-blue" },
        headers: { "x-correlation-id": correlationId },
      }),
    );
    const rows = await rowsOf(tenant.tenantId, { entityId: tag.id });
    expect(rows.map((r) => r.action)).toEqual(["tag.created", "tag.updated"]);
    expect(rows[1]).toMatchObject({
      actorKind: "client",
      source: "rest",
      operation: "PATCH /api/v1/provision/admin/tags/{id}",
      entityKind: "tag",
      correlationId,
      changes: { name: { from: "audit-red", to: "audit-blue" } },
    });
    expect(rows[1].changes).not.toHaveProperty("updatedAt");

    // A save that changes nothing leaves no row; a delete is a delete.
    made(await request("PATCH", `${PROVISION}admin/tags/${tag.id}`, { token, body: { name: "audit-blue" } }));
    expect(await rowsOf(tenant.tenantId, { entityId: tag.id, action: "tag.updated" })).toHaveLength(1);
    expect((await request("DELETE", `${PROVISION}admin/tags/${tag.id}`, { token })).status).toBeLessThan(300);
    expect((await rowsOf(tenant.tenantId, { entityId: tag.id })).at(-1)?.action).toBe("tag.deleted");
  });

  it("a refused mutation rolls back with its audit rows: nothing is recorded", async () => {
    const before = await testDb().auditEvent.count({ where: { tenantId: tenant.tenantId } });
    const res = await request("POST", `${PROVISION}admin/suites`, {
      token,
      body: { code: "S-BAD", name: "Bad", memberProductIds: [randomUUID()] },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(await testDb().auditEvent.count({ where: { tenantId: tenant.tenantId } })).toBe(before);
  });

  it("a back-office (tRPC) mutation is audited as the staff user, named by its procedure", async () => {
    const { cookie } = await uiSignIn("staff", {
      email: tenant.adminEmail,
      password: tenant.adminPassword,
      tenant: tenant.tenantSlug,
    });
    const created = await trpcMutation<{ id: string }>(
      "tags.create",
      { name: "ui-tag", scope: "Product" },
      cookie,
    );
    expect(created.status, created.error?.message).toBe(200);
    const [row] = await rowsOf(tenant.tenantId, { entityId: created.data!.id });
    expect(row).toMatchObject({
      actorKind: "user",
      actorLabel: tenant.adminEmail,
      source: "trpc",
      operation: "tags.create",
      action: "tag.created",
    });
    expect(row.correlationId).toEqual(expect.any(String));
  });

  it("secrets, tokens, password hashes and fingerprints are never stored: a changed one is only marked redacted", async () => {
    const db = tenantDb(testDb(), tenant.tenantId);
    const user = await db.user.findFirstOrThrow({ where: { kind: "staff" } });
    await runAudited({ actorKind: "system", actorId: "test", source: "cli", operation: "test" }, () =>
      db.user.update({
        where: { id: user.id },
        data: { passwordHash: "$argon2id$new-hash", name: "Renamed" },
      }),
    );
    const row = (await rowsOf(tenant.tenantId, { entityId: user.id, operation: "test" }))[0];
    expect(row.changes).toEqual({
      passwordHash: { redacted: true },
      name: { from: user.name, to: "Renamed" },
    });
    expect(JSON.stringify(row)).not.toContain("new-hash");

    // A client's creation row carries no secret hash at all; a device's fingerprint hash never appears.
    const { session, entitlement } = await activatedLicense(token);
    made(
      await request("POST", `${PROVISION}operational/entitlements/${entitlement.id}/devices/block`, {
        token,
        body: { fingerprint: "blocked-fingerprint-123" },
      }),
    );
    const all = JSON.stringify(await rowsOf(tenant.tenantId));
    expect(all).not.toContain("blocked-fingerprint-123");
    expect(all).not.toMatch(/"fingerprintHash":\{"from"/);
    expect(session.sessionId).toEqual(expect.any(String));
  });

  it("runtime session calls are recorded by their events, not by audit rows (docs/decisions.md)", async () => {
    const { session } = await activatedLicense(token);
    const before = await testDb().auditEvent.count({ where: { tenantId: tenant.tenantId } });
    expect((await sessionCall("renew", session.sessionId, session.token)).status).toBe(200);
    await sessionCall("check-in", session.sessionId, session.token);
    expect(await testDb().auditEvent.count({ where: { tenantId: tenant.tenantId } })).toBe(before);
    expect(
      await testDb().auditEvent.count({ where: { tenantId: tenant.tenantId, entityId: session.sessionId } }),
    ).toBe(0);
  });

  it("GET /admin/audit-events pages the trail with Sieve filters, needs provision.audit.read and shows only the caller's tenant", async () => {
    const page = made(
      await request("GET", `${AUDIT}?filter=action==tag.updated&pageSize=1`, { token: auditToken }),
    );
    expect(page).toMatchObject({ pageNumber: 1, pageSize: 1, totalCount: 1, hasNextPage: false });
    expect(page.items[0]).toMatchObject({ action: "tag.updated", entityKind: "tag", source: "rest" });

    const all = made(
      await request("GET", `${AUDIT}?pageSize=2&sortOrder=-occurredAt`, { token: auditToken }),
    );
    expect(all.totalCount).toBeGreaterThan(2);
    expect(all.hasNextPage).toBe(true);
    expect(Date.parse(all.items[0].occurredAt)).toBeGreaterThanOrEqual(Date.parse(all.items[1].occurredAt));

    const bySource = made(
      await request("GET", `${AUDIT}?filter=source==trpc,operation@=tags`, { token: auditToken }),
    );
    expect(bySource.items.every((e: { source: string }) => e.source === "trpc")).toBe(true);

    expectProblem(
      await request("GET", `${AUDIT}?filter=changes==x`, { token: auditToken }),
      400,
      "license.validation_error",
    );
    expectProblem(
      await request("GET", AUDIT, { token: await tenant.token(["provision.tag.read"]) }),
      403,
      "auth.insufficient_scope",
    );
    expect((await request("GET", AUDIT)).status).toBe(401);

    const foreign = made(await request("GET", AUDIT, { token: await other.token(["provision.audit.read"]) }));
    expect(
      foreign.items.some((e: { entityId: string }) =>
        all.items.some((a: { entityId: string }) => a.entityId === e.entityId),
      ),
    ).toBe(false);
  });
});
