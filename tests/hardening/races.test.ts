import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { testDb, type ApiResponse, type TestTenant, createTestTenant } from "../helpers/api.ts";
import { parallelRequest } from "../helpers/metering.ts";
import { ALL_PROVISION_SCOPES, PROVISION } from "../helpers/tenant-world.ts";
import { entitlementCatalog } from "../helpers/entitlements.ts";
import { tenantDb } from "../../server/db/tenant-db.ts";
import { setRecordTags } from "../../server/domain/catalog/tags/record-tags.ts";

/**
 * docs/security.md "Suites", races: parallel requests (each on its own connection), then the
 * invariants checked in the database. Seats, consume, balance mutations and idempotency keys have
 * their race tests beside their features (listed in docs/security.md); these are the ones that had
 * none: plan-set publish and tag merge.
 */

const PLAN_SETS = `${PROVISION}admin/usage-plans/plan-sets`;
const TAGS = `${PROVISION}admin/tags`;

const noBug = (answers: ApiResponse[]) => {
  for (const res of answers) expect(res.status, res.text).toBeLessThan(500);
};

describe("races", () => {
  let tenant: TestTenant;
  let token: string;

  beforeAll(async () => {
    tenant = await createTestTenant("Races");
    token = await tenant.token(ALL_PROVISION_SCOPES);
  });

  it("plan-set publish: eight Draft revisions of one suite published at once → exactly one Published revision, the others Archived", async () => {
    const cat = await entitlementCatalog(tenant, { code: `RACE${randomUUID().slice(0, 4).toUpperCase()}` });
    const drafts: string[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await parallelRequest("POST", PLAN_SETS, {
        token,
        body: {
          suiteId: cat.suite.id,
          name: `Race ${i}`,
          plans: [
            {
              name: "Only",
              pricingMode: "Absolute",
              monthlyPrice: null,
              lineItems: [{ productId: cat.product.id, featureValues: [] }],
            },
          ],
        },
      });
      expect(res.status, res.text).toBe(200);
      drafts.push(res.body.id);
    }
    const answers = await Promise.all(
      [...drafts, ...drafts.slice(0, 4)].map((id) =>
        parallelRequest("PUT", `${PLAN_SETS}/${id}/status`, { token, body: { status: "Published" } }),
      ),
    );
    noBug(answers);
    const rows = await tenantDb(testDb(), tenant.tenantId).usagePlanSet.findMany({
      where: { suiteId: cat.suite.id },
      select: { id: true, status: true },
    });
    expect(rows.filter((r) => r.status === "Published")).toHaveLength(1);
    expect(rows.filter((r) => r.status === "Draft")).toHaveLength(0);
    // Every revision that was ever published answered 200 for it; the last one standing is one of them.
    const won = new Set(answers.filter((r) => r.status === 200).map((r) => r.body.id));
    expect(won.has(rows.find((r) => r.status === "Published")!.id)).toBe(true);
  });

  it("tag merge: merges in both directions and in chains at once never lose a record's tags, never leave an assignment on a deleted tag, never duplicate one", async () => {
    const prefix = `race-${randomUUID().slice(0, 6)}`;
    const names = ["a", "b", "c", "d", "e"].map((n) => `${prefix}-${n}`);
    const tags: string[] = [];
    for (const name of names) {
      const res = await parallelRequest("POST", TAGS, { token, body: { name, scope: "Product" } });
      expect(res.status, res.text).toBe(201);
      tags.push(res.body.id);
    }
    const scoped = tenantDb(testDb(), tenant.tenantId);
    const records = Array.from({ length: 30 }, () => randomUUID());
    for (const [i, record] of records.entries())
      await setRecordTags(scoped, tenant.tenantId, "Product", record, [names[i % 5], names[(i + 2) % 5]]);
    const [a, b, c, d, e] = tags;
    const merges: [string, string][] = [
      [a, b],
      [b, a],
      [c, b],
      [d, c],
      [e, d],
      [b, e],
      [a, c],
      [d, a],
    ];
    const answers = await Promise.all(
      merges.map(([from, into]) =>
        parallelRequest("POST", `${TAGS}/${from}/merge`, { token, body: { intoTagId: into } }),
      ),
    );
    noBug(answers);
    expect(answers.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    const live = await scoped.tag.findMany({
      where: { id: { in: tags } },
      select: { id: true, isDeleted: true },
    });
    const liveIds = new Set(live.filter((t) => !t.isDeleted).map((t) => t.id));
    expect(liveIds.size).toBeGreaterThanOrEqual(1);
    const assignments = await scoped.tagAssignment.findMany({ where: { recordId: { in: records } } });
    for (const row of assignments)
      expect(liveIds.has(row.tagId), `assignment on deleted tag ${row.tagId}`).toBe(true);
    const keys = assignments.map((r) => `${r.recordId}:${r.tagId}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const record of records)
      expect(
        assignments.some((r) => r.recordId === record),
        `record ${record} lost its tags`,
      ).toBe(true);
  });
});
