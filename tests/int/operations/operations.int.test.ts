import { createHash, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, createTestTenant, request, type TestTenant } from "../../helpers/api.ts";
import { activateJwt, activated, licensedEntitlement } from "../../helpers/runtime.ts";
import { makeCustomerUser } from "../../helpers/licensing-fixtures.ts";
import { trpcQuery, uiSignIn } from "../../helpers/ui-session.ts";
import { TEST_METRICS_TOKEN } from "../../helpers/test-server.ts";
import { parseCsv } from "../../helpers/csv.ts";

/**
 * Operations: GET /api/metrics in Prometheus text format, and the back office's
 * dashboard, global search, customer 360 and list exports over HTTP as a signed-in staff user.
 */

type Sample = { name: string; labels: Record<string, string>; value: number };

/**
 * Parses Prometheus text exposition 0.0.4 strictly: every line is a HELP, a TYPE or a sample of
 * the family last typed; label values are quoted with \\ \" \n escapes; values are floats or
 * +Inf/-Inf/NaN. Throws on anything else.
 */
function parseExposition(text: string): { types: Map<string, string>; samples: Sample[] } {
  expect(text.endsWith("\n")).toBe(true);
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  const NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
  const sampleLine = new RegExp(`^(${NAME})(\\{(.*)\\})? (-?[0-9.eE+-]+|[+-]Inf|NaN)$`);
  const labelPair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\["\\n])*)"(,|$)/y;
  let current = "";
  for (const line of text.slice(0, -1).split("\n")) {
    const help = new RegExp(`^# HELP (${NAME}) .+$`).exec(line);
    const type = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`).exec(line);
    if (help) continue;
    if (type) {
      expect(types.has(type[1]), `family ${type[1]} typed twice`).toBe(false);
      types.set(type[1], type[2]);
      current = type[1];
      continue;
    }
    const m = sampleLine.exec(line);
    if (!m) throw new Error(`not an exposition line: ${JSON.stringify(line)}`);
    const name = m[1];
    const family = types.get(current) === "histogram" ? name.replace(/_(bucket|sum|count)$/, "") : name;
    expect(family, `sample ${name} outside its family ${current}`).toBe(current);
    const labels: Record<string, string> = {};
    if (m[3]) {
      labelPair.lastIndex = 0;
      while (labelPair.lastIndex < m[3].length) {
        const pair = labelPair.exec(m[3]);
        if (!pair) throw new Error(`bad labels: ${m[3]}`);
        labels[pair[1]] = pair[2].replace(/\\n/g, "\n").replace(/\\"/g, '"').replace(/\\\\/g, "\\");
      }
    }
    samples.push({ name, labels, value: m[4] === "+Inf" ? Infinity : Number(m[4]) });
  }
  return { types, samples };
}

async function scrape() {
  const res = await fetch(`${baseUrl()}/api/metrics`, {
    headers: { authorization: `Bearer ${TEST_METRICS_TOKEN}` },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await res.text());
}

const value = (samples: Sample[], name: string, labels: Record<string, string>) =>
  samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);

let tenant: TestTenant;
let other: TestTenant;
let staff: string;
let otherStaff: string;

beforeAll(async () => {
  tenant = await createTestTenant("Operations");
  other = await createTestTenant("Operations Neighbour");
  staff = (await uiSignIn("staff", { email: tenant.adminEmail, password: tenant.adminPassword })).cookie;
  otherStaff = (await uiSignIn("staff", { email: other.adminEmail, password: other.adminPassword })).cookie;
});

describe("GET /api/metrics", () => {
  it("answers 401 without the configured bearer token", async () => {
    expect((await fetch(`${baseUrl()}/api/metrics`)).status).toBe(401);
    const wrong = await fetch(`${baseUrl()}/api/metrics`, { headers: { authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("parses as Prometheus exposition format and counts an activation and a refusal", async () => {
    const { code } = await licensedEntitlement(tenant, { claimBasedActivation: { numberOfSeats: 1 } });
    const before = await scrape();
    await activated({ activationCode: code, fingerprint: `metrics-${randomUUID()}` });
    const refused = await activateJwt({ activationCode: code, fingerprint: `metrics-${randomUUID()}` });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.codeName).toBe("license.no_seat_available");
    const after = await scrape();

    expect(after.types.get("licensing_activations_total")).toBe("counter");
    expect(after.types.get("licensing_refusals_total")).toBe("counter");
    expect(after.types.get("licensing_http_request_duration_seconds")).toBe("histogram");
    for (const gauge of [
      "licensing_db_pool_connections",
      "licensing_job_queue_depth",
      "licensing_job_queue_oldest_ready_age_seconds",
      "licensing_webhook_deliveries",
      "licensing_webhook_outbox_backlog",
    ])
      expect(after.types.get(gauge), gauge).toBe("gauge");

    const activations = (s: Sample[]) => value(s, "licensing_activations_total", { kind: "online" });
    const refusals = (s: Sample[]) =>
      value(s, "licensing_refusals_total", { operation: "activation", code: "license.no_seat_available" });
    // Other files share the server: their activations may land between the scrapes too.
    expect(activations(after.samples)).toBeGreaterThanOrEqual(activations(before.samples) + 1);
    expect(refusals(after.samples)).toBeGreaterThanOrEqual(refusals(before.samples) + 1);
    expect(
      value(after.samples, "licensing_http_requests_total", { group: "activation", status: "409" }),
    ).toBeGreaterThanOrEqual(1);

    // The activation group's histogram: cumulative buckets, +Inf equal to the count.
    const buckets = after.samples.filter(
      (s) => s.name === "licensing_http_request_duration_seconds_bucket" && s.labels.group === "activation",
    );
    expect(buckets.length).toBeGreaterThan(2);
    for (let i = 1; i < buckets.length; i++)
      expect(buckets[i].value).toBeGreaterThanOrEqual(buckets[i - 1].value);
    expect(buckets.at(-1)!.labels.le).toBe("+Inf");
    expect(buckets.at(-1)!.value).toBe(
      value(after.samples, "licensing_http_request_duration_seconds_count", { group: "activation" }),
    );
    expect(value(after.samples, "licensing_db_pool_max_connections", {})).toBeGreaterThan(0);
  });
});

describe("dashboard", () => {
  it("counts the tenant's own sessions, seats, activations, expiring licenses and refusals; another tenant's none", async () => {
    const fresh = await createTestTenant("Dashboard");
    const cookie = (await uiSignIn("staff", { email: fresh.adminEmail, password: fresh.adminPassword }))
      .cookie;
    const soon = new Date(Date.now() + 10 * 86_400_000).toISOString();
    const a = await licensedEntitlement(fresh, {
      claimBasedActivation: { numberOfSeats: 3 },
      expirationDateTime: soon,
    });
    await licensedEntitlement(fresh, { claimBasedActivation: { numberOfSeats: 2 } });
    await activated({ activationCode: a.code, fingerprint: `dash-${randomUUID()}` });
    await activated({ activationCode: a.code, fingerprint: `dash-${randomUUID()}` });
    const revoked = await request("POST", `/api/v1/provision/operational/activation-codes/${a.code}/revoke`, {
      token: await fresh.token("provision.activation-code.*"),
    });
    expect(revoked.status, revoked.text).toBe(200);
    const refused = await activateJwt({ activationCode: a.code, fingerprint: `dash-${randomUUID()}` });
    expect(refused.status, refused.text).toBeGreaterThanOrEqual(400);

    const res = await trpcQuery<{
      seats: { activeSessions: number; seatsInForce: number; licensesInForce: number; utilization: number };
      activationsTotal: number;
      activationsPerDay: { day: string; count: number }[];
      expiring: { count: number; soonest: { id: string }[] };
      refusals: { operation: string; codeName: string; count: number }[];
    }>("operations.dashboard", undefined, cookie);
    expect(res.status, JSON.stringify(res.error)).toBe(200);
    const d = res.data!;
    expect(d.seats).toEqual({ activeSessions: 2, seatsInForce: 5, licensesInForce: 2, utilization: 0.4 });
    expect(d.activationsTotal).toBe(2);
    expect(d.activationsPerDay).toHaveLength(30);
    expect(d.activationsPerDay.at(-1)!.count).toBe(2);
    expect(d.expiring.count).toBe(1);
    expect(d.expiring.soonest[0].id).toBe(a.entitlement.id);
    expect(d.refusals).toEqual([{ operation: "activation", codeName: refused.body.codeName, count: 1 }]);

    const theirs = await trpcQuery<typeof d>("operations.dashboard", undefined, otherStaff);
    expect(theirs.data!.activationsTotal).toBe(0);
    expect(theirs.data!.refusals).toEqual([]);
  });
});

describe("global search and customer 360", () => {
  it("finds a customer by email, a device by name and fingerprint hash, a code typed loosely; never another tenant's", async () => {
    const email = `search-${randomUUID().slice(0, 8)}@customer.example.com`;
    const customer = await makeCustomerUser(tenant, { email, firstName: "Sally", lastName: "Search" });
    const { code, entitlement } = await licensedEntitlement(tenant, { customerId: customer.id });
    const fingerprint = `search-${randomUUID()}`;
    const deviceName = `Render node ${randomUUID().slice(0, 6)}`;
    const res = await activateJwt({ activationCode: code, fingerprint, deviceName });
    expect(res.status, res.text).toBe(200);

    type Result = { groups: { kind: string; hits: { id: string; title: string; href: string }[] }[] };
    const search = async (q: string, cookie = staff) => {
      const r = await trpcQuery<Result>("operations.search", { q }, cookie);
      expect(r.status, JSON.stringify(r.error)).toBe(200);
      return Object.fromEntries(r.data!.groups.map((g) => [g.kind, g.hits]));
    };
    const byEmail = await search(email.toUpperCase());
    expect(byEmail.customer.map((h) => h.href)).toEqual([`/admin/customers/users/${customer.id}`]);
    const byDevice = await search(deviceName.slice(0, 14).toLowerCase());
    expect(byDevice.device.map((h) => h.title)).toContain(deviceName);
    // A device of a customer's license opens the customer (customer 360).
    expect(byDevice.device.find((h) => h.title === deviceName)!.href).toBe(
      `/admin/customers/users/${customer.id}`,
    );
    const hash = createHash("sha256").update(fingerprint).digest("hex");
    expect((await search(hash.slice(0, 12))).device?.map((h) => h.title)).toContain(deviceName);
    expect((await search(fingerprint)).device?.map((h) => h.title)).toContain(deviceName);
    const loose = code.toLowerCase().replace(/-/g, " ");
    expect((await search(loose)).activationCode?.map((h) => h.href)).toEqual([
      `/admin/entitlements/${entitlement.id}`,
    ]);
    expect((await search(entitlement.name)).entitlement?.map((h) => h.id)).toContain(entitlement.id);

    // Tenant isolation: the neighbour's staff find nothing of it.
    expect(await search(email, otherStaff)).toEqual({});
    expect(await search(deviceName, otherStaff)).toEqual({});
    expect(await search(code, otherStaff)).toEqual({});

    const overview = await trpcQuery<{
      customer: { email: string };
      entitlements: { id: string; activeSessions: number }[];
      activationCodes: { code: string }[];
      devices: { deviceName: string }[];
      sessions: { isActive: boolean }[];
      events: { type: string }[];
    }>("operations.customer", { kind: "User", id: customer.id }, staff);
    expect(overview.status, JSON.stringify(overview.error)).toBe(200);
    expect(overview.data!.customer.email).toBe(email);
    expect(overview.data!.entitlements).toMatchObject([{ id: entitlement.id, activeSessions: 1 }]);
    expect(overview.data!.activationCodes.map((c) => c.code)).toEqual([code]);
    expect(overview.data!.devices.map((d) => d.deviceName)).toEqual([deviceName]);
    expect(overview.data!.sessions.map((s) => s.isActive)).toEqual([true]);
    expect(overview.data!.events.map((e) => e.type)).toContain("Entitlement.SeatActivated");

    const foreign = await trpcQuery("operations.customer", { kind: "User", id: customer.id }, otherStaff);
    expect(foreign.status).toBe(404);
  });
});

describe("list exports", () => {
  it("streams a list page's rows as filtered, as CSV; unknown list 404, bad filter 400, no session 401", async () => {
    const tag = randomUUID().slice(0, 6);
    for (const name of [`Export ${tag} alpha`, `Export ${tag} beta`, `Other ${tag}`])
      await licensedEntitlement(tenant, { name });
    const filter = encodeURIComponent(`name@=*export ${tag}`);
    const res = await fetch(`${baseUrl()}/admin/export/entitlements?filter=${filter}&sortOrder=name`, {
      headers: { cookie: staff },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="entitlements-/);
    const [header, ...rows] = parseCsv(await res.text());
    expect(header).toEqual(expect.arrayContaining(["id", "name", "status", "featureNames", "productNames"]));
    expect(rows.map((r) => r[header.indexOf("name")])).toEqual([`Export ${tag} alpha`, `Export ${tag} beta`]);

    const theirs = await fetch(`${baseUrl()}/admin/export/entitlements?filter=${filter}`, {
      headers: { cookie: otherStaff },
    });
    expect(parseCsv(await theirs.text())).toHaveLength(1);
    expect((await fetch(`${baseUrl()}/admin/export/nope`, { headers: { cookie: staff } })).status).toBe(404);
    const bad = await fetch(`${baseUrl()}/admin/export/entitlements?filter=secret==1`, {
      headers: { cookie: staff },
    });
    expect(bad.status).toBe(400);
    expect((await fetch(`${baseUrl()}/admin/export/entitlements`)).status).toBe(401);
  });
});
