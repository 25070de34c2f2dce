// npx tsx scripts/profile-runtime.ts [activation|renew|check-in|consume|upload ...]: where the web
// process spends its CPU on the runtime hot path. For each
// scenario it starts the production server on a fresh database with the V8 profiler preloaded
// (scripts/profile-runtime-preload.mjs), seeds one license (consume and upload: the metering
// bench's 16 licenses and its loads, scripts/bench/metering.ts), warms up, profiles an autocannon
// load (64 connections, 10 s) and prints the top self-time functions.
// Not a benchmark: the profiler itself slows the process; compare shares, not requests/s.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomUUID } from "node:crypto";
import type { AutocannonRequest } from "autocannon";
import { createDb } from "../server/db/client.ts";
import { tenantDb } from "../server/db/tenant-db.ts";
import { systemContext } from "../server/domain/context.ts";
import { createTenant } from "../server/domain/cross-tenant.ts";
import { createClient } from "../server/domain/identity/oauth-clients.ts";
import { defaultKeyIssuancePolicy } from "../server/domain/entitlements/entitlement/key-issuance-policy.schemas.ts";
import { startTestServer, TEST_APP_SECRET } from "../tests/helpers/test-server.ts";
import { load } from "./bench/load.ts";
import { meteringLoads, seedMetering } from "./bench/metering.ts";

const ACTIVATIONS = "/api/v1/provision/activations";
const json = { "content-type": "application/json" };

type ProfileNode = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type CpuProfile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

/** Self time per function (name + file:line), as a share of all non-idle samples. */
function topSelfTime(profile: CpuProfile, limit = 15) {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const node = byNode.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === "(idle)" || functionName === "(program)") return;
    const file = url.replace(/^.*\/(node_modules\/|\.next\/|node:)/, "$1");
    const key = `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}`;
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(key, (self.get(key) ?? 0) + dt);
    total += dt;
  });
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([fn, us]) => ({ fn, selfMs: Math.round(us / 1000), share: `${((us / total) * 100).toFixed(1)}%` }));
}

/**
 * Self time by where the code lives (a package, the app's bundle), native functions and Node's
 * internals (socket writes, crypto jobs, timers) counted to the nearest caller outside Node.
 */
function selfTimeByOwner(profile: CpuProfile) {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const owner = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const { functionName } = byNode.get(id)!.callFrame;
    if (functionName === "(idle)" || functionName === "(program)") return;
    let at: number | undefined = id;
    const own = (n: number) => byNode.get(n)!.callFrame.url;
    while (at !== undefined && (!own(at) || own(at).startsWith("node:"))) at = parent.get(at);
    const url = at === undefined ? "" : byNode.get(at)!.callFrame.url;
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
    const key = pkg
      ? pkg
      : url.includes("/.next/")
        ? "app bundle (.next)"
        : url.includes("profile-runtime-preload")
          ? "profiler (inspector)"
          : url.startsWith("node:")
            ? "node internals"
            : functionName === "(garbage collector)"
              ? "garbage collector"
              : url
                ? url
                : "native";
    const dt = profile.timeDeltas[i] ?? 0;
    owner.set(key, (owner.get(key) ?? 0) + dt);
    total += dt;
  });
  return [...owner.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([where, us]) => ({ where, share: `${((us / total) * 100).toFixed(1)}%` }));
}

type Scenario = "activation" | "renew" | "check-in" | "consume" | "upload";

async function profileScenario(scenario: Scenario) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), `cpu-${scenario}-`)), "web.cpuprofile");
  const preload = new URL("./profile-runtime-preload.mjs", import.meta.url).href;
  const server = await startTestServer({
    extraEnv: { NODE_OPTIONS: `--import ${preload}`, PROFILE_OUT: file, LOG_LEVEL: "warn" },
  });
  // The web process: the one listening on the server's port.
  const port = new URL(server.baseUrl).port;
  const listening = execFileSync("ss", ["-ltnpH", `sport = :${port}`], { encoding: "utf8" });
  const pid = Number(/pid=(\d+)/.exec(listening)?.[1]);
  process.env.APP_SECRET = TEST_APP_SECRET;
  const db = createDb(server.databaseUrl, { max: 4 });
  let result;
  try {
    if (scenario === "consume" || scenario === "upload") {
      const request = meteringLoads(await seedMetering(server, db, () => {}))[scenario];
      process.kill(pid, "SIGUSR2");
      result = await load(server.baseUrl, request);
      process.kill(pid, "SIGUSR2");
      for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 200));
      return await finish();
    }
    const tenant = await createTenant(db, { name: "Profile runtime" });
    const scopes = ["provision.activation-code.*"];
    const { client, clientSecret } = await createClient(systemContext(db, tenant.tenantId, "profile"), {
      name: "profile",
      kind: "admin",
      scopes,
    });
    const tokenRes = await fetch(`${server.baseUrl}/auth/connect/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: client.clientId,
        client_secret: clientSecret,
        scope: scopes.join(" "),
      }),
    });
    const adminToken = ((await tokenRes.json()) as { access_token: string }).access_token;
    const entitlement = await tenantDb(db, tenant.tenantId).entitlement.create({
      data: {
        tenantId: tenant.tenantId,
        name: "Profile license",
        features: [],
        activationPolicy: {},
        claimBasedActivation: {
          leaseTime: "PT1H",
          gracePeriod: "P1D",
          numberOfSeats: 1_000_000,
          isFloatingLicense: false,
        },
        keyIssuancePolicy: defaultKeyIssuancePolicy(),
        productIds: [],
      },
    });
    const issued = await fetch(
      `${server.baseUrl}/api/v1/provision/operational/entitlements/${entitlement.id}/activation-codes`,
      { method: "POST", headers: { ...json, authorization: `Bearer ${adminToken}` }, body: "{}" },
    );
    const activationCode = ((await issued.json()) as { codes: { code: string }[] }).codes[0].code;
    const activate = async () => {
      const res = await fetch(`${server.baseUrl}${ACTIVATIONS}/jwt`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ activationCode, fingerprint: `profile-${randomUUID()}` }),
      });
      if (!res.ok) throw new Error(`activation: ${res.status} ${await res.text()}`);
      const token = (await res.json()) as string;
      const claims = JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")) as {
        sub: string;
      };
      return { token, sessionId: claims.sub };
    };
    let request: AutocannonRequest;
    if (scenario === "activation") {
      request = {
        method: "POST",
        path: `${ACTIVATIONS}/jwt`,
        headers: json,
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ activationCode, fingerprint: `profile-${randomUUID()}` }),
        }),
      };
    } else {
      const sessions: { token: string; sessionId: string }[] = [];
      for (let i = 0; i < 16; i++)
        sessions.push(...(await Promise.all(Array.from({ length: 16 }, activate))));
      let next = 0;
      request = {
        method: "POST",
        setupRequest: (req) => {
          const s = sessions[next++ % sessions.length];
          return {
            ...req,
            path: `${ACTIVATIONS}/${s.sessionId}/${scenario}`,
            headers: { authorization: `Bearer ${s.token}` },
          };
        },
      };
    }
    // Warm up (JIT, prepared statements), then the measured load.
    await Promise.all(Array.from({ length: 32 }, activate));
    process.kill(pid, "SIGUSR2");
    result = await load(server.baseUrl, request);
    process.kill(pid, "SIGUSR2");
    for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 200));
  } finally {
    await db.$disconnect();
    await server.stop();
  }
  return finish();

  async function finish() {
    const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
    return summary(scenario, result!.requestsPerSecond, result!.non2xx, profile, file);
  }
}

function summary(scenario: string, rps: number, non2xx: number, profile: CpuProfile, file: string) {
  return {
    scenario,
    requestsPerSecond: rps,
    non2xx,
    byOwner: selfTimeByOwner(profile),
    top: topSelfTime(profile),
    file,
  };
}

const asked = process.argv.slice(2);
if (asked[0] === "--analyze") {
  // Summarize a saved profile again: --analyze FILE
  const profile = JSON.parse(readFileSync(asked[1], "utf8")) as CpuProfile;
  process.stdout.write(`${JSON.stringify(summary("saved", 0, 0, profile, asked[1]), null, 2)}\n`);
  process.exit(0);
}
for (const scenario of (asked.length ? asked : ["activation", "renew"]) as Scenario[]) {
  const out = await profileScenario(scenario);
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}
process.exit(0);
