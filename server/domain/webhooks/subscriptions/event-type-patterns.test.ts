import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { validateEventTypePatterns, patternsMatch } from "./event-type-patterns.ts";
import { eventTypes, scalarFieldPaths } from "../events/event-types.ts";
import { fieldText, filtersMatch, validateFilters } from "./subscription-filters.ts";
import {
  generateSigningSecret,
  signatureHeader,
  signatureMatches,
  signingKey,
  validateSigningSecret,
} from "./signing-secret.ts";
import { transition, type StateSnapshot } from "./subscription-states.ts";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS, retryDelayMs } from "../delivery/retry-schedule.ts";
import { isInternalHostName, isNonPublicAddress } from "./receiver-url.ts";
import { allowedCallbackScopes, validateCallbackScopes } from "./callback-scopes.ts";
import { scopeCatalog } from "../../identity/scopes.ts";
import { z } from "zod";

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as { codeName?: string }).codeName;
  }
  return undefined;
};

describe("filters.attributeEquality matching (docs/api.md Subscriptions rule 4)", () => {
  const data = {
    planCode: "PRO",
    billing: { provider: "stripe", providerCustomerReference: null },
    transferCount: 1000,
    ratio: 0.25,
    approved: true,
    rejected: false,
    productIds: ["a"],
    nothing: null,
    "dotted.key": "x",
  };
  it.each([
    ["planCode", "PRO", true],
    ["planCode", "pro", false], // exact case-sensitive text
    ["PlanCode", "PRO", false], // field names with their exact case
    ["billing.provider", "stripe", true], // dot path
    ["billing.provider", "Stripe", false],
    ["billing", "[object Object]", false], // the object itself never matches
    ["billing.providerCustomerReference", "null", false], // null never matches
    ["nothing", "null", false],
    ["missing", "", false], // a field the event does not carry
    ["billing.missing.deeper", "x", false],
    ["productIds", "a", false], // arrays never match
    ["productIds.0", "a", false],
    ["transferCount", "1000", true], // numbers as the payload writes them
    ["transferCount", "1000.0", false],
    ["transferCount", "1e3", false],
    ["ratio", "0.25", true],
    ["ratio", ".25", false],
    ["approved", "true", true], // booleans as true / false
    ["approved", "True", false],
    ["rejected", "false", true],
    ["dotted.key", "x", false], // a dot always separates path segments
  ])("%s == %j → %s", (path, value, matches) => {
    expect(filtersMatch({ attributeEquality: { [path]: value } }, { entitykind: "entitlement", data })).toBe(
      matches,
    );
  });

  it("every filter set must pass (entity kind, severity, every equality)", () => {
    const envelope = {
      entitykind: "monitored-asset",
      data: { severity: "Critical", metricName: "api-calls" },
    };
    expect(
      filtersMatch(
        {
          entityKinds: ["monitored-asset"],
          severities: ["Critical"],
          attributeEquality: { metricName: "api-calls" },
        },
        envelope,
      ),
    ).toBe(true);
    expect(filtersMatch({ entityKinds: ["entitlement"] }, envelope)).toBe(false);
    expect(filtersMatch({ severities: ["Warning"] }, envelope)).toBe(false);
    expect(filtersMatch({ severities: ["Critical"] }, { entitykind: "entitlement", data: {} })).toBe(false);
    expect(
      filtersMatch({ attributeEquality: { metricName: "api-calls", severity: "Warning" } }, envelope),
    ).toBe(false);
    expect(filtersMatch(null, envelope)).toBe(true);
  });

  it("fieldText reads strings, finite numbers and booleans only", () => {
    expect(fieldText({ a: { b: 7 } }, "a.b")).toBe("7");
    expect(fieldText({ a: [1] }, "a")).toBeUndefined();
    expect(fieldText({ a: {} }, "a")).toBeUndefined();
    expect(fieldText({ a: "" }, "a")).toBe("");
  });
});

describe("filter validation (docs/api.md Subscriptions, 4034) and pattern validation (4035)", () => {
  it("refuses filters that could never match and re-checks them against the patterns", () => {
    expect(codeOf(() => validateFilters({ attributeEquality: { "": "x" } }, ["*"]))).toBe(
      "subscription.invalid_filter",
    );
    expect(codeOf(() => validateFilters({ attributeEquality: { "a..b": "x" } }, ["*"]))).toBe(
      "subscription.invalid_filter",
    );
    expect(codeOf(() => validateFilters({ attributeEquality: { planCode: null } }, ["*"]))).toBe(
      "subscription.invalid_filter",
    );
    expect(
      codeOf(() => validateFilters({ attributeEquality: { email: "x" } }, ["Entitlement.Activated"])),
    ).toBe("subscription.invalid_filter");
    expect(validateFilters({ attributeEquality: { email: "x" } }, ["*"])).toEqual({
      attributeEquality: { email: "x" },
    });
    expect(
      validateFilters({ attributeEquality: { email: "x" } }, ["Entitlement.Activated", "User.Created"]),
    ).toEqual({ attributeEquality: { email: "x" } });
    expect(codeOf(() => validateFilters({ severities: ["Critical"] }, ["User.Created"]))).toBe(
      "subscription.invalid_filter",
    );
    expect(codeOf(() => validateFilters({ entityKinds: ["organization"] }, ["User.Created"]))).toBe(
      "subscription.invalid_filter",
    );
    expect(validateFilters({ entityKinds: [], severities: [], attributeEquality: {} }, ["*"])).toBeNull();
  });

  it("accepts exact types and *, refuses family wildcards, unknown types, wrong case and the challenge", () => {
    expect(validateEventTypePatterns(["User.Created", "User.Created"])).toEqual(["User.Created"]);
    expect(validateEventTypePatterns(["User.Created", "*"])).toEqual(["*"]);
    for (const bad of [
      ["Entitlement.*"],
      ["*.Created"],
      ["user.created"],
      ["Webhooks.Registration.Challenge"],
      ["Nope"],
      [],
    ]) {
      expect(codeOf(() => validateEventTypePatterns(bad))).toBe("subscription.invalid_event_type");
    }
    expect(patternsMatch(["*"], "Some.FutureType")).toBe(true);
    expect(patternsMatch(["*"], "Webhooks.Registration.Challenge")).toBe(false);
    expect(patternsMatch(["User.Created"], "User.Updated")).toBe(false);
  });
});

describe("event-type registry", () => {
  it("every sample payload is valid for its schema and its field paths exclude objects and arrays", () => {
    for (const t of eventTypes) {
      expect(t.dataSchema.safeParse(t.sample.data).success, t.type).toBe(true);
      expect(t.fieldPaths.length).toBeGreaterThan(0);
      expect(t.fieldPaths).not.toContain("billing");
      expect(t.fieldPaths).not.toContain("productIds");
    }
    expect(
      scalarFieldPaths(
        z.object({
          a: z.object({ b: z.string().optional(), c: z.array(z.string()) }).optional(),
          d: z.number().nullable(),
        }),
      ),
    ).toEqual(["a.b", "d"]);
  });
});

describe("signing (Standard Webhooks, docs/api.md Signing)", () => {
  it("signs over {webhook-id}.{webhook-timestamp}.{body} with the decoded secret, as the standardwebhooks library verifies", () => {
    const secret = generateSigningSecret();
    expect(signingKey(secret)?.length).toBe(32);
    const timestamp = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ hello: "wörld" });
    const header = signatureHeader([secret], "msg_1", timestamp, body);
    expect(new Webhook(secret).sign("msg_1", new Date(timestamp * 1000), body)).toBe(header);
    expect(() =>
      new Webhook(secret).verify(body, {
        "webhook-id": "msg_1",
        "webhook-timestamp": String(timestamp),
        "webhook-signature": header,
      }),
    ).not.toThrow();
  });

  it("during rotation lists one signature per secret; any listed signature matching is accepted", () => {
    const [a, b] = [generateSigningSecret(), generateSigningSecret()];
    const header = signatureHeader([b, a], "id", 1700000000, "{}");
    expect(header.split(" ")).toHaveLength(2);
    expect(signatureMatches([a], "id", 1700000000, "{}", header)).toBe(true);
    expect(signatureMatches([b], "id", 1700000000, "{}", header)).toBe(true);
    expect(signatureMatches([generateSigningSecret()], "id", 1700000000, "{}", header)).toBe(false);
    expect(signatureMatches([a], "id", 1700000001, "{}", header)).toBe(false);
  });

  it("secrets are whsec_ + canonical base64 of 24 to 64 bytes", () => {
    const of = (n: number) => `whsec_${Buffer.alloc(n, 5).toString("base64")}`;
    expect(validateSigningSecret(of(24))).toBe(of(24));
    expect(validateSigningSecret(of(64))).toBe(of(64));
    for (const bad of [of(23), of(65), of(32).slice(6), "whsec_", "whsec_====", `${of(32)} `])
      expect(signingKey(bad)).toBeNull();
  });
});

describe("subscription states (docs/api.md States and transitions)", () => {
  const s = (
    state: StateSnapshot["state"],
    resumeState: StateSnapshot["resumeState"] = null,
  ): StateSnapshot => ({ state, resumeState });
  it.each([
    [s("PendingVerification"), "verified", s("Active")],
    [s("Active"), "disable", s("Disabled")],
    [s("Disabled"), "enable", s("Active")],
    [s("Active"), "enable", s("Active")],
    [s("Active"), "urlChanged", s("PendingVerification")],
    [s("Disabled"), "urlChanged", s("PendingVerification")],
    [s("Disabled"), "suspend", s("Suspended", "Disabled")],
    [s("Suspended", "Disabled"), "resume", s("Disabled")],
    [s("Suspended", "Active"), "urlChanged", s("Suspended", "PendingVerification")],
    [s("Active"), "resume", s("Active")],
  ] as const)("%o --%s--> %o", (from, trigger, to) => {
    expect(transition(from, trigger)).toEqual(to);
  });
  it.each([
    [s("PendingVerification"), "enable"],
    [s("PendingVerification"), "disable"],
    [s("Suspended", "Active"), "enable"],
    [s("Suspended", "Active"), "verified"],
  ] as const)("%o --%s--> 409", (from, trigger) => {
    expect(codeOf(() => transition(from, trigger))).toBe("subscription.invalid_state");
  });
});

describe("retry schedule (docs/architecture.md section 7)", () => {
  it("immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then dead", () => {
    expect(RETRY_DELAYS_MS).toEqual([
      0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(MAX_ATTEMPTS).toBe(8);
    const scale = process.env.WEBHOOKS_RETRY_SCALE;
    delete process.env.WEBHOOKS_RETRY_SCALE;
    try {
      expect([1, 2, 3, 4, 5, 6, 7].map(retryDelayMs)).toEqual([
        5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
      ]);
      expect(retryDelayMs(8)).toBeNull();
    } finally {
      if (scale !== undefined) process.env.WEBHOOKS_RETRY_SCALE = scale;
    }
  });
});

describe("receiver addresses (docs/api.md Subscriptions)", () => {
  it.each([
    "127.0.0.1",
    "127.5.5.5",
    "10.0.0.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "::",
    "::1",
    "fe80::1",
    "fc00::1",
    "fd12:3456::1",
    "::ffff:127.0.0.1",
    "::ffff:8.8.8.8",
    "ff02::1",
    "not-an-ip",
  ])("%s is not public", (address) => expect(isNonPublicAddress(address)).toBe(true));
  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "2606:4700:4700::1111", "2a00:1450:4001::200e"])(
    "%s is public",
    (address) => expect(isNonPublicAddress(address)).toBe(false),
  );
  it.each([
    "localhost",
    "localhost.",
    "api.localhost",
    "printer.local",
    "db.internal",
    "vm",
    "intranet",
    "host.home.arpa",
    "x.corp",
  ])("%s is internal", (name) => expect(isInternalHostName(name)).toBe(true));
  it.each(["example.com", "hooks.example.com.", "api.internal-tools.io"])("%s is a public name", (name) =>
    expect(isInternalHostName(name)).toBe(false),
  );
});

describe("callback scopes (docs/api.md Event rules)", () => {
  it("allows only concrete catalog scopes of the allowed families, never wildcards, delete verbs or administration", () => {
    for (const scope of allowedCallbackScopes) {
      expect(scopeCatalog).toContain(scope);
      expect(scope).not.toMatch(/\*|\.delete$|webhook|customer|^provision\.catalog\.|offline|device/);
    }
    expect(codeOf(() => validateCallbackScopes(["provision.product.*"]))).toBe(
      "subscription.invalid_callback_scope",
    );
    expect(validateCallbackScopes(["provision.session.read", "provision.session.read"])).toEqual([
      "provision.session.read",
    ]);
  });
});
