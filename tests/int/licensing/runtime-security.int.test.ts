import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, expectProblem, request, testDb, type TestTenant } from "../../helpers/api.ts";
import { fingerprintHash, signedInConsumer } from "../../helpers/licensing-fixtures.ts";
import { offlineRequestArtifact } from "../../helpers/offline.ts";
import { activated, activateJwt, licensedEntitlement, ACTIVATIONS } from "../../helpers/runtime.ts";

const OP = "/api/v1/provision/operational";
const fp = () => `fp-${randomUUID()}`;

/**
 * Runtime defects found in review (docs/security.md): each test is named after the defect it
 * reproduces and passes only once the defect is gone.
 */
describe("runtime security: pool exhaustion, component re-keying, activation Idempotency-Key", () => {
  let tenant: TestTenant;
  let deviceToken: string;

  beforeAll(async () => {
    tenant = await createTestTenant("Runtime security");
    deviceToken = await tenant.token("provision.device.*");
  });

  describe("connection-pool exhaustion: keyed session calls held two connections each", () => {
    it("100 parallel keyed renews with one token (10 keys, each sent 10 times): no 500, each key answers one renewal", async () => {
      const { code } = await licensedEntitlement(tenant);
      const a = await activated({ activationCode: code, fingerprint: fp() });
      const keys = Array.from({ length: 10 }, () => `renew-${randomUUID()}`);
      const sent = Array.from({ length: 100 }, (_, i) => keys[i % keys.length]);
      const answers = await Promise.all(
        sent.map((key) =>
          request("POST", `${ACTIVATIONS}/${a.sessionId}/renew`, {
            token: a.token,
            headers: { "idempotency-key": key },
          }),
        ),
      );
      const statuses = answers.map((r) => r.status);
      expect(
        statuses.filter((s) => s >= 500),
        answers.find((r) => r.status >= 500)?.text,
      ).toEqual([]);
      expect(new Set(statuses)).toEqual(new Set([200]));
      // Each key: one renewal, and its stored answer (the same token) for the other nine.
      for (const key of keys) {
        const tokens = answers.filter((_, i) => sent[i] === key).map((r) => r.body.token);
        expect(new Set(tokens).size).toBe(1);
      }
      expect(answers.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(90);
    });

    it("keyed check-in, release and offline issue run inside the key's transaction and answer as without a key", async () => {
      const { code } = await licensedEntitlement(tenant, {
        claimBasedActivation: { allowOfflineActivation: true, numberOfSeats: 5 },
      });
      const a = await activated({ activationCode: code, fingerprint: fp() });
      const keyed = (op: string) =>
        Promise.all(
          Array.from({ length: 30 }, () =>
            request("POST", `${ACTIVATIONS}/${a.sessionId}/${op}`, {
              token: a.token,
              headers: { "idempotency-key": `${op}-${a.sessionId}` },
            }),
          ),
        );
      for (const op of ["check-in", "release"]) {
        const answers = await keyed(op);
        expect(
          answers.map((r) => r.status),
          op,
        ).toEqual(answers.map(() => 200));
      }
      expect(
        (await testDb().licenseSession.findUniqueOrThrow({ where: { id: a.sessionId } })).revokedAt,
      ).not.toBe(null);
      const offlineToken = await tenant.token("provision.offline.create");
      const artifact = offlineRequestArtifact(code, fp());
      const issued = await Promise.all(
        Array.from({ length: 30 }, () =>
          request("POST", `${OP}/activations/offline/issue`, {
            token: offlineToken,
            body: artifact,
            headers: { "idempotency-key": `offline-${a.sessionId}` },
          }),
        ),
      );
      expect(issued.map((r) => r.status)).toEqual(issued.map(() => 200));
      expect(new Set(issued.map((r) => r.body.signature)).size).toBe(1);
    });
  });

  describe("activation Idempotency-Key is tenant-wide", () => {
    it("another user with the same key and fingerprint does not get the first user's session token", async () => {
      const first = await signedInConsumer(tenant);
      const second = await signedInConsumer(tenant);
      const mine = await licensedEntitlement(tenant, { customerId: first.customer.id, customerKind: "User" });
      await licensedEntitlement(tenant, { customerId: second.customer.id, customerKind: "User" });
      const key = `shared-${randomUUID()}`;
      const fingerprint = fp();
      const body = { useInteractiveUser: true, fingerprint };
      const a = await activated(body, { authorization: `Bearer ${first.token}`, "idempotency-key": key });
      expect(a.claims.ent).toBe(mine.entitlement.id);
      const theirs = await activateJwt(body, {
        authorization: `Bearer ${second.token}`,
        "idempotency-key": key,
      });
      expectProblem(theirs, 409, "idempotency.key_reused");
      expect(theirs.text).not.toContain(a.token);
      // The key still answers its own user's request.
      const again = await activated(body, { authorization: `Bearer ${first.token}`, "idempotency-key": key });
      expect(again.sessionId).toBe(a.sessionId);
    });

    it("one key used on two codes in parallel answers 409 idempotency.key_reused, never 500", async () => {
      for (let round = 0; round < 3; round++) {
        const one = await licensedEntitlement(tenant);
        const two = await licensedEntitlement(tenant);
        const key = `parallel-${randomUUID()}`;
        const fingerprint = fp();
        const answers = await Promise.all(
          [one.code, two.code, one.code, two.code].map((activationCode) =>
            activateJwt({ activationCode, fingerprint }, { "idempotency-key": key }),
          ),
        );
        const statuses = answers.map((r) => r.status).sort();
        expect(statuses.filter((s) => s >= 500)).toEqual([]);
        // One code's activation (and its identical replay) wins; the other code's are refused.
        expect(statuses).toEqual([200, 200, 409, 409]);
        for (const r of answers.filter((x) => x.status === 409))
          expectProblem(r, 409, "idempotency.key_reused");
        const sessions = await testDb().licenseSession.findMany({
          where: { tenantId: tenant.tenantId, idempotencyKey: key },
        });
        expect(sessions).toHaveLength(1);
      }
    });
  });

  describe("component matching re-keys a device from one matching component", () => {
    const known = { MachineName: "m-a", MacAddress: "mac-a", OsVersion: "os-a", UserName: "user-a" };
    /** `base` with the components of `keys` replaced by `other`'s own values. */
    const mixed = (keys: string[], other: string) =>
      Object.fromEntries(Object.entries(known).map(([k, v]) => [k, keys.includes(k) ? `${v}-${other}` : v]));
    const license = (strategy: string, seats = 5) =>
      licensedEntitlement(tenant, {
        claimBasedActivation: { componentMatchingStrategy: strategy, numberOfSeats: seats },
      });
    const devicesOf = (entitlementId: string) =>
      testDb().device.findMany({ where: { entitlementId }, orderBy: { createdAt: "asc" } });

    it("MatchAny: a re-keyed device keeps its own components, so a machine matching only the newcomer's components is a new device", async () => {
      const { entitlement, code } = await license("MatchAny");
      const a = await activated({ activationCode: code, fingerprint: fp(), components: known });
      // X shares one component (OsVersion) with A: the strategy admits it as A.
      const xComponents = mixed(["MachineName", "MacAddress", "UserName"], "x");
      const x = await activated({ activationCode: code, fingerprint: fp(), components: xComponents });
      expect(x.sessionId).toBe(a.sessionId);
      // Y shares one component with X's presented set and none with A's own.
      const yComponents = {
        ...mixed(["MachineName", "MacAddress", "OsVersion", "UserName"], "y"),
        MachineName: xComponents.MachineName,
      };
      const y = await activated({ activationCode: code, fingerprint: fp(), components: yComponents });
      expect(y.sessionId).not.toBe(a.sessionId);
      const devices = await devicesOf(entitlement.id);
      expect(devices).toHaveLength(2);
      expect(devices[0].components).toEqual(known);
    });

    it("MatchAny: many machines cannot share one seat: a fingerprint a device was re-keyed away from never matches into it again", async () => {
      const { entitlement, code } = await license("MatchAny", 1);
      const fa = fp();
      const a = await activated({ activationCode: code, fingerprint: fa, components: known });
      const fx = fp();
      const x = await activated({
        activationCode: code,
        fingerprint: fx,
        components: mixed(["MachineName"], "x"),
      });
      expect(x.sessionId).toBe(a.sessionId);
      // The machine A was comes back: it is another device now, and the one seat is taken.
      expectProblem(
        await activateJwt({ activationCode: code, fingerprint: fa, components: known }),
        409,
        "license.no_seat_available",
      );
      const [device] = await devicesOf(entitlement.id);
      expect(device.fingerprintHash).toBe(fingerprintHash(fx));
      // The re-key is recorded on the device.
      expect(device.fingerprintHistory).toEqual([
        expect.objectContaining({
          fingerprintHash: fingerprintHash(fa),
          replacedBy: fingerprintHash(fx),
          strategy: "MatchAny",
          equalComponents: 3,
        }),
      ]);
    });

    it("Two: after a re-key by two components, two of the newcomer's own components do not take the device over", async () => {
      const { entitlement, code } = await license("Two");
      const a = await activated({ activationCode: code, fingerprint: fp(), components: known });
      const xComponents = mixed(["OsVersion", "UserName"], "x");
      const x = await activated({ activationCode: code, fingerprint: fp(), components: xComponents });
      expect(x.sessionId).toBe(a.sessionId);
      // Y has X's OsVersion and UserName (two equal to X's set, none to A's own).
      const y = await activated({
        activationCode: code,
        fingerprint: fp(),
        components: {
          ...mixed(["MachineName", "MacAddress"], "y"),
          OsVersion: xComponents.OsVersion,
          UserName: xComponents.UserName,
        },
      });
      expect(y.sessionId).not.toBe(a.sessionId);
      expect(await devicesOf(entitlement.id)).toHaveLength(2);
    });

    it("Most: a device that stored one component is never matched by that one component", async () => {
      const { entitlement, code } = await license("Most");
      const a = await activated({
        activationCode: code,
        fingerprint: fp(),
        components: { OsVersion: "os-shared" },
      });
      const other = await activated({
        activationCode: code,
        fingerprint: fp(),
        components: { OsVersion: "os-shared" },
      });
      expect(other.sessionId).not.toBe(a.sessionId);
      expect(await devicesOf(entitlement.id)).toHaveLength(2);
    });

    it("Most: after a re-key by three of four, the newcomer's own components count for nothing", async () => {
      const { entitlement, code } = await license("Most");
      const a = await activated({ activationCode: code, fingerprint: fp(), components: known });
      const xComponents = mixed(["UserName"], "x");
      const x = await activated({ activationCode: code, fingerprint: fp(), components: xComponents });
      expect(x.sessionId).toBe(a.sessionId);
      // Three equal to X's presented set, two to A's own: not most of A's.
      const y = await activated({
        activationCode: code,
        fingerprint: fp(),
        components: { ...mixed(["MachineName", "UserName"], "y"), UserName: xComponents.UserName },
      });
      expect(y.sessionId).not.toBe(a.sessionId);
      expect(await devicesOf(entitlement.id)).toHaveLength(2);
    });

    it("a blocked device's components never match a new fingerprint into it: refused as blocked, the device keeps its fingerprint", async () => {
      const { entitlement, code } = await license("MatchAny");
      const fa = fp();
      await activated({ activationCode: code, fingerprint: fa, components: known });
      const blocked = await request("POST", `${OP}/entitlements/${entitlement.id}/devices/block`, {
        token: deviceToken,
        body: { fingerprint: fa },
      });
      expect(blocked.status, blocked.text).toBe(200);
      expectProblem(
        await activateJwt({
          activationCode: code,
          fingerprint: fp(),
          components: mixed(["MachineName"], "z"),
        }),
        403,
        "license.device_blocked",
      );
      const devices = await devicesOf(entitlement.id);
      expect(devices).toHaveLength(1);
      expect(devices[0]).toMatchObject({
        fingerprintHash: fingerprintHash(fa),
        isBlocked: true,
        fingerprintHistory: null,
      });
    });

    it("candidates are found through the DeviceComponent index: the stored components are rows of the device", async () => {
      const { entitlement, code } = await license("Two");
      const a = await activated({ activationCode: code, fingerprint: fp(), components: known });
      const rows = await testDb().deviceComponent.findMany({ where: { entitlementId: entitlement.id } });
      expect(rows.map((r) => [r.name, r.valueHash]).sort()).toEqual(Object.entries(known).sort());
      const session = await testDb().licenseSession.findUniqueOrThrow({ where: { id: a.sessionId } });
      expect(new Set(rows.map((r) => r.deviceId))).toEqual(new Set([session.deviceId]));
    });
  });
});
