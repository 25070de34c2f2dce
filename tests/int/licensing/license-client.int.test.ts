// The reference client (scripts/license-client.ts) run as a real process against the test server,
// the way a shipped application would use the runtime surface.
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZComponents } from "../../../server/domain/licensing/activation/activation.schemas.ts";
import { baseUrl, createTestTenant, type TestTenant } from "../../helpers/api.ts";
import { fingerprintHash } from "../../helpers/licensing-fixtures.ts";
import { licensedEntitlement } from "../../helpers/runtime.ts";
import { licenseClient as client } from "../../helpers/license-client.ts";

describe("license client: the reference client against the service", () => {
  let tenant: TestTenant;
  let dir: string;

  beforeAll(async () => {
    tenant = await createTestTenant("Client");
    dir = await mkdtemp(path.join(tmpdir(), "license-client-"));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("activate → verify offline (a forged signature fails) → renew → check-in → release → renew is exit 3 → activate again is a new session", async () => {
    const { entitlement, code } = await licensedEntitlement(tenant);
    const fingerprint = `fp-${randomUUID()}`;
    const stateFile = path.join(dir, "lifecycle.json");

    const activated = await client(
      "activate",
      "--url",
      baseUrl(),
      "--code",
      code,
      "--fingerprint",
      fingerprint,
      "--device-name",
      "CI box",
      "--state-file",
      stateFile,
    );
    expect(activated.code, activated.stderr).toBe(0);
    expect(activated.json).toMatchObject({
      activated: true,
      entitlementId: entitlement.id,
      tenantId: tenant.tenantId,
      licenseState: "Active",
      license: { name: entitlement.name },
    });
    const sessionId = activated.json.sessionId as string;
    const state = JSON.parse(await readFile(stateFile, "utf8"));
    expect(state).toMatchObject({
      url: baseUrl(),
      sessionId,
      tenantId: tenant.tenantId,
      token: expect.any(String),
    });
    expect(state.jwks.keys.length).toBeGreaterThan(0);
    expect(activated.stdout).not.toContain(state.token);

    const verified = await client("verify", "--state-file", stateFile, "--fingerprint", fingerprint);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.json).toMatchObject({ valid: true, deviceChecked: true, sessionId });

    const otherDevice = await client("verify", "--state-file", stateFile, "--fingerprint", "another machine");
    expect(otherDevice.code).toBe(5);
    expect(otherDevice.stderr).toMatch(/another device/);

    // A token whose signature is not the tenant's fails offline, with no server involved.
    const [header, payload, signature] = state.token.split(".");
    const flipped = signature.startsWith("A") ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    const forgedFile = path.join(dir, "forged.json");
    await writeFile(forgedFile, JSON.stringify({ ...state, token: `${header}.${payload}.${flipped}` }));
    const forged = await client("verify", "--state-file", forgedFile);
    expect(forged.code).toBe(5);
    expect(forged.stderr).toMatch(/signature does not verify/);
    expect(forged.stdout).toBe("");

    const renewed = await client("renew", "--state-file", stateFile);
    expect(renewed.code, renewed.stderr).toBe(0);
    expect(renewed.json).toMatchObject({
      op: "renew",
      sessionId,
      entitlementId: entitlement.id,
      state: "Active",
    });
    expect(renewed.json.token).toBeUndefined();
    const renewedState = JSON.parse(await readFile(stateFile, "utf8"));
    expect(renewedState.token).not.toBe(state.token);

    const checkedIn = await client("check-in", "--state-file", stateFile);
    expect(checkedIn.code, checkedIn.stderr).toBe(0);
    expect(checkedIn.json).toMatchObject({
      op: "check-in",
      sessionId,
      state: "Active",
      lastContactAt: expect.any(String),
    });

    const released = await client("release", "--state-file", stateFile);
    expect(released.code, released.stderr).toBe(0);
    expect(released.json).toMatchObject({ op: "release", sessionId, state: "Released" });

    const renewAfterRelease = await client("renew", "--state-file", stateFile);
    expect(renewAfterRelease.code).toBe(3);
    expect(renewAfterRelease.stderr).toContain("license.no_active_session");

    const again = await client(
      "activate",
      "--url",
      baseUrl(),
      "--code",
      code,
      "--fingerprint",
      fingerprint,
      "--state-file",
      stateFile,
    );
    expect(again.code, again.stderr).toBe(0);
    expect(again.json.sessionId).not.toBe(sessionId);
  }, 120_000);

  it("a token the server does not accept is exit 4, an unknown code is a refusal (exit 6), no state is exit 8", async () => {
    const { code } = await licensedEntitlement(tenant);
    const stateFile = path.join(dir, "refusals.json");
    const activated = await client(
      "activate",
      "--url",
      baseUrl(),
      "--code",
      code,
      "--fingerprint",
      `fp-${randomUUID()}`,
      "--state-file",
      stateFile,
    );
    expect(activated.code, activated.stderr).toBe(0);
    const state = JSON.parse(await readFile(stateFile, "utf8"));
    const [header, payload] = state.token.split(".");
    await writeFile(stateFile, JSON.stringify({ ...state, token: `${header}.${payload}.AAAA` }));
    const rejected = await client("check-in", "--state-file", stateFile);
    expect(rejected.code).toBe(4);
    expect(rejected.stderr).toContain("license.session_token_rejected");

    const unknown = await client(
      "activate",
      "--url",
      baseUrl(),
      "--code",
      "NOPE-NOPE-NOPE",
      "--fingerprint",
      "x",
      "--state-file",
      path.join(dir, "unknown.json"),
    );
    expect(unknown.code).toBe(6);
    expect(unknown.stderr).toContain("license.not_found");

    const none = await client("verify", "--state-file", path.join(dir, "missing.json"));
    expect(none.code).toBe(8);
    const usage = await client("activate", "--url", baseUrl());
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--code/);
  }, 60_000);

  it("offline-request writes a schema-valid artifact whose components are hashes, never the raw values", async () => {
    const out = path.join(dir, "request.json");
    const run = await client(
      "offline-request",
      "--code",
      "ABCD-EFGH",
      "--fingerprint",
      "fp-offline",
      "--components",
      "MachineName=build-box,MacAddress=00:11:22:33:44:55",
      "--out",
      out,
    );
    expect(run.code, run.stderr).toBe(0);
    const artifact = JSON.parse(await readFile(out, "utf8"));
    expect(artifact).toEqual(run.json);
    expect(artifact.meta).toMatchObject({ schemaVersion: 1, sdkVersion: expect.any(String) });
    expect(new Date(artifact.meta.requestedAt).toISOString()).toBe(artifact.meta.requestedAt);
    expect(artifact.meta.nonce).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(artifact.meta.nonce, "base64url")).toHaveLength(32);
    expect(artifact.body).toEqual({
      activationCode: "ABCD-EFGH",
      fingerprint: "fp-offline",
      applicationInfo: null,
      components: {
        MachineName: fingerprintHash("build-box"),
        MacAddress: fingerprintHash("00:11:22:33:44:55"),
      },
      attestation: null,
    });
    expect(ZComponents.safeParse(artifact.body.components).success).toBe(true);
    for (const value of Object.values(artifact.body.components)) expect(value).toMatch(/^[0-9a-f]{64}$/);
    expect(await readFile(out, "utf8")).not.toContain("build-box");

    const second = await client("offline-request", "--code", "ABCD-EFGH", "--fingerprint", "fp-offline");
    expect(second.json.meta.nonce).not.toBe(artifact.meta.nonce);
    expect(second.json.body.components).toBeNull();
  });
});
