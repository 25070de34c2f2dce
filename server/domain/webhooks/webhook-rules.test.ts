import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { seal } from "../../crypto/secret-box.ts";
import { deliveryHeaders, liveSecrets } from "./delivery/delivery-request.ts";
import { retryDelayMs } from "./delivery/retry-schedule.ts";
import {
  allowPrivateReceiverUrls,
  deliveryCaps,
  dispatchPollMs,
  retryScale,
  workerDeliverySlots,
} from "./delivery/settings.ts";
import { buildEnvelope, envelopeSource, parseEnvelope, serializeEnvelope } from "./events/envelope.ts";
import { assertCallbackScopesGrantable, validateCallbackScopes } from "./subscriptions/callback-scopes.ts";
import {
  coveredEventTypes,
  patternsMatch,
  validateEventTypePatterns,
} from "./subscriptions/event-type-patterns.ts";
import {
  assertReceiverUrl,
  checkReceiverUrlShape,
  isInternalHostName,
  resolvePublicAddresses,
} from "./subscriptions/receiver-url.ts";
import {
  signatureHeader,
  signatureMatches,
  signatureOf,
  signingKey,
  validateSigningSecret,
} from "./subscriptions/signing-secret.ts";
import { fieldText, filtersMatch, validateFilters } from "./subscriptions/subscription-filters.ts";
import { takesDeliveries, transition, type StateSnapshot } from "./subscriptions/subscription-states.ts";

/**
 * The webhook rules of docs/api.md ("Subscriptions", "Signing", "Envelope", "Delivery headers")
 * and docs/architecture.md section 7, each answer written out: the problem a refusal carries
 * (code, detail and field issues), the headers and bytes a delivery sends.
 */
type Problem = { codeName: string; message: string; issues?: { path: string; message: string }[] };
const problemOf = (error: unknown): Problem => {
  const e = error as Problem;
  return { codeName: e.codeName, message: e.message, ...(e.issues ? { issues: e.issues } : {}) };
};
function refusal(call: () => unknown): Problem | "no error" {
  try {
    call();
    return "no error";
  } catch (error) {
    return problemOf(error);
  }
}
async function refusalOf(call: () => Promise<unknown>): Promise<Problem | "no error"> {
  try {
    await call();
    return "no error";
  } catch (error) {
    return problemOf(error);
  }
}

const ENV = [
  "WEBHOOKS_RETRY_SCALE",
  "WEBHOOKS_ALLOW_PRIVATE_URLS",
  "WEBHOOKS_TENANT_CONCURRENCY",
  "WEBHOOKS_SUBSCRIPTION_CONCURRENCY",
  "WEBHOOKS_WORKER_SLOTS",
  "WEBHOOKS_DISPATCH_POLL_MS",
  "APP_SECRET",
] as const;
const savedEnv = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));
afterEach(() => {
  for (const name of ENV) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
});
const withEnv = (values: Partial<Record<(typeof ENV)[number], string | undefined>>) => {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
};

describe("webhook settings from the environment", () => {
  it("the retry scale: a finite number at least 0, else 1", () => {
    withEnv({ WEBHOOKS_RETRY_SCALE: undefined });
    expect(retryScale()).toBe(1);
    for (const [value, scale] of [
      ["0.5", 0.5],
      ["0", 0],
      ["3", 3],
      ["-1", 1],
      ["abc", 1],
      ["Infinity", 1],
    ] as const) {
      withEnv({ WEBHOOKS_RETRY_SCALE: value });
      expect(retryScale(), value).toBe(scale);
    }
  });

  it("the retry delays scale with it, rounded to whole milliseconds", () => {
    withEnv({ WEBHOOKS_RETRY_SCALE: "0.5" });
    expect([0, 1, 2, 3, 7, 8].map(retryDelayMs)).toEqual([0, 2_500, 150_000, 900_000, 18_000_000, null]);
    withEnv({ WEBHOOKS_RETRY_SCALE: "0.0001" });
    expect(retryDelayMs(1)).toBe(1);
    withEnv({ WEBHOOKS_RETRY_SCALE: "0.00009" });
    expect(retryDelayMs(1)).toBe(0);
    expect(retryDelayMs(9)).toBeNull();
  });

  it("a negative attempt count waits like none", () => {
    withEnv({ WEBHOOKS_RETRY_SCALE: undefined });
    expect(retryDelayMs(-1)).toBe(0);
    expect(retryDelayMs(0)).toBe(0);
  });

  it("private receiver URLs only with exactly 1", () => {
    withEnv({ WEBHOOKS_ALLOW_PRIVATE_URLS: "1" });
    expect(allowPrivateReceiverUrls()).toBe(true);
    withEnv({ WEBHOOKS_ALLOW_PRIVATE_URLS: "true" });
    expect(allowPrivateReceiverUrls()).toBe(false);
    withEnv({ WEBHOOKS_ALLOW_PRIVATE_URLS: undefined });
    expect(allowPrivateReceiverUrls()).toBe(false);
  });

  it("delivery caps, worker slots and the idle poll: defaults, settings, and a refusal of anything but a positive integer", () => {
    withEnv({
      WEBHOOKS_TENANT_CONCURRENCY: undefined,
      WEBHOOKS_SUBSCRIPTION_CONCURRENCY: "",
      WEBHOOKS_WORKER_SLOTS: undefined,
      WEBHOOKS_DISPATCH_POLL_MS: undefined,
    });
    expect(deliveryCaps()).toEqual({ perTenant: 64, perSubscription: 16 });
    expect(workerDeliverySlots()).toBe(256);
    expect(dispatchPollMs()).toBe(200);
    withEnv({
      WEBHOOKS_TENANT_CONCURRENCY: "8",
      WEBHOOKS_SUBSCRIPTION_CONCURRENCY: "1",
      WEBHOOKS_WORKER_SLOTS: "32",
      WEBHOOKS_DISPATCH_POLL_MS: "50",
    });
    expect(deliveryCaps()).toEqual({ perTenant: 8, perSubscription: 1 });
    expect(workerDeliverySlots()).toBe(32);
    expect(dispatchPollMs()).toBe(50);
    withEnv({ WEBHOOKS_DISPATCH_POLL_MS: "500" });
    expect(dispatchPollMs()).toBe(200);
    for (const bad of ["0", "-3", "1.5", "abc"]) {
      withEnv({ WEBHOOKS_WORKER_SLOTS: bad });
      expect(() => workerDeliverySlots()).toThrow(
        `WEBHOOKS_WORKER_SLOTS must be a positive integer, got ${bad}`,
      );
    }
  });
});

describe("receiver URLs (docs/api.md Subscriptions rule 6)", () => {
  const invalidUrl = (message: string): Problem => ({
    codeName: "subscription.invalid_url",
    message,
    issues: [{ path: "body.url", message }],
  });

  it("refuses what is not an absolute URL, schemes other than https, credentials and an empty host", () => {
    expect(refusal(() => checkReceiverUrlShape("not a url", false))).toEqual(
      invalidUrl("The URL is not a valid absolute URL."),
    );
    expect(refusal(() => checkReceiverUrlShape("http://example.com/hook", false))).toEqual(
      invalidUrl("Plain http is refused; receivers must use https."),
    );
    expect(refusal(() => checkReceiverUrlShape("ftp://example.com/hook", false))).toEqual(
      invalidUrl("The ftp: scheme is refused; receivers must use https."),
    );
    expect(refusal(() => checkReceiverUrlShape("ftp://example.com/hook", true))).toEqual(
      invalidUrl("The ftp: scheme is refused; receivers must use https."),
    );
    for (const url of [
      "https://user:pw@example.com/",
      "https://user@example.com/",
      "https://:pw@example.com/",
    ])
      expect(
        refusal(() => checkReceiverUrlShape(url, false)),
        url,
      ).toEqual(
        invalidUrl("Credentials in the URL are refused; authenticate deliveries by their signature."),
      );
    expect(refusal(() => checkReceiverUrlShape("https://./", true))).toEqual(
      invalidUrl("The URL has no host."),
    );
  });

  it("refuses non-public addresses and internal names, unless private receivers are allowed (tests)", () => {
    expect(refusal(() => checkReceiverUrlShape("https://10.0.0.1/hook", false))).toEqual(
      invalidUrl(
        "10.0.0.1 is not a public address (loopback, private, link-local and other internal ranges are refused).",
      ),
    );
    expect(refusal(() => checkReceiverUrlShape("https://[::1]:8443/hook", false))).toEqual(
      invalidUrl(
        "::1 is not a public address (loopback, private, link-local and other internal ranges are refused).",
      ),
    );
    expect(refusal(() => checkReceiverUrlShape("https://printer.local./hook", false))).toEqual(
      invalidUrl("printer.local is an internal host name; receivers must have a public DNS name."),
    );
    for (const url of ["https://10.0.0.1/hook", "https://localhost/hook", "http://127.0.0.1:3000/hook"])
      expect(checkReceiverUrlShape(url, true).toString(), url).toBe(url);
    expect(checkReceiverUrlShape("https://8.8.8.8/hook", false).toString()).toBe("https://8.8.8.8/hook");
    expect(checkReceiverUrlShape("https://hooks.example.com/x", false).toString()).toBe(
      "https://hooks.example.com/x",
    );
  });

  it("internal host names: case-insensitive, a suffix only as whole labels", () => {
    expect(isInternalHostName("PRINTER.LOCAL")).toBe(true);
    expect(isInternalHostName("home.arpa")).toBe(true);
    expect(isInternalHostName("api.notlocal")).toBe(false);
    expect(isInternalHostName("local.example.com")).toBe(false);
  });

  it("a resolved host passes only when every address is public", async () => {
    const resolve = (addresses: string[]) => async () => addresses;
    await expect(
      resolvePublicAddresses("hooks.example.com", {
        allowPrivate: false,
        resolve: resolve(["8.8.8.8", "1.1.1.1"]),
      }),
    ).resolves.toEqual(["8.8.8.8", "1.1.1.1"]);
    expect(
      await refusalOf(() =>
        resolvePublicAddresses("hooks.example.com", {
          allowPrivate: false,
          resolve: resolve(["8.8.8.8", "10.0.0.1", "127.0.0.1"]),
        }),
      ),
    ).toEqual(
      invalidUrl("hooks.example.com resolves to 10.0.0.1, 127.0.0.1, which is not a public address."),
    );
    await expect(
      resolvePublicAddresses("hooks.example.com", { allowPrivate: true, resolve: resolve(["10.0.0.1"]) }),
    ).resolves.toEqual(["10.0.0.1"]);
  });

  it("a host that does not resolve, or resolves to nothing, is refused", async () => {
    const failing = async (): Promise<string[]> => {
      throw new Error("ENOTFOUND");
    };
    expect(
      await refusalOf(() =>
        resolvePublicAddresses("nx.example.com", { allowPrivate: true, resolve: failing }),
      ),
    ).toEqual(invalidUrl("nx.example.com does not resolve."));
    expect(
      await refusalOf(() =>
        resolvePublicAddresses("nx.example.com", { allowPrivate: true, resolve: async () => [] }),
      ),
    ).toEqual(invalidUrl("nx.example.com does not resolve."));
  });

  it("an address as host is checked as it is, without DNS", async () => {
    const never = async (): Promise<string[]> => {
      throw new Error("no DNS for an address");
    };
    await expect(resolvePublicAddresses("8.8.8.8", { allowPrivate: false, resolve: never })).resolves.toEqual(
      ["8.8.8.8"],
    );
    expect(
      await refusalOf(() => resolvePublicAddresses("10.0.0.1", { allowPrivate: false, resolve: never })),
    ).toEqual(invalidUrl("10.0.0.1 is not a public address."));
    await expect(resolvePublicAddresses("10.0.0.1", { allowPrivate: true, resolve: never })).resolves.toEqual(
      ["10.0.0.1"],
    );
  });

  it("the full check returns the URL normalised, after resolving its host", async () => {
    const asked: string[] = [];
    const resolve = async (host: string) => {
      asked.push(host);
      return ["8.8.8.8"];
    };
    await expect(
      assertReceiverUrl("https://Hooks.Example.com./in", { allowPrivate: false, resolve }),
    ).resolves.toBe("https://hooks.example.com./in");
    expect(asked).toEqual(["hooks.example.com"]);
    expect(
      await refusalOf(() =>
        assertReceiverUrl("https://hooks.example.com/in", {
          allowPrivate: false,
          resolve: async () => ["192.168.0.9"],
        }),
      ),
    ).toEqual(invalidUrl("hooks.example.com resolves to 192.168.0.9, which is not a public address."));
  });
});

describe("callback scopes (docs/api.md Event rules)", () => {
  it("a refused scope: 400 with the list refused and one field issue per scope", () => {
    expect(
      refusal(() =>
        validateCallbackScopes(["provision.session.read", "provision.product.*", "provision.balance.delete"]),
      ),
    ).toEqual({
      codeName: "subscription.invalid_callback_scope",
      message:
        "Callback scopes are limited to catalog, license, session, usage, quota, credit balance, metric and rating scopes without wildcards or delete verbs; refused: provision.product.*, provision.balance.delete.",
      issues: [
        { path: "body.callbackScopes", message: "provision.product.* is not an allowed callback scope" },
        { path: "body.callbackScopes", message: "provision.balance.delete is not an allowed callback scope" },
      ],
    });
    expect(validateCallbackScopes([])).toEqual([]);
  });

  it("staff and the service may set any allowed callback scope, and no scopes need no grant: nothing is read", async () => {
    // No database here: a check that read one would fail on `db` being absent.
    const ctx = (kind: string) => ({ actor: { kind, id: "a1" }, db: undefined }) as never;
    const access = { surface: "integrator" } as never;
    await expect(
      assertCallbackScopesGrantable(ctx("user"), access, ["provision.session.read"]),
    ).resolves.toBeUndefined();
    await expect(
      assertCallbackScopesGrantable(ctx("system"), access, ["provision.session.read"]),
    ).resolves.toBeUndefined();
    await expect(assertCallbackScopesGrantable(ctx("client"), access, [])).resolves.toBeUndefined();
    await expect(
      assertCallbackScopesGrantable(ctx("client"), access, ["provision.session.read"]),
    ).rejects.toThrow(TypeError);
  });
});

describe("callback scopes a credential may not grant (docs/security.md Webhooks)", () => {
  const ctx = { actor: { kind: "license", id: "s1" }, db: undefined } as never;

  it("a credential that is neither staff, the service nor an API client holds no scope to grant: 403, nothing read", async () => {
    expect(
      await refusalOf(() =>
        assertCallbackScopesGrantable(ctx, { surface: "tenant-admin" } as never, [
          "provision.session.read",
          "provision.usage.read",
        ]),
      ),
    ).toEqual({
      codeName: "subscription.callback_scope_not_granted",
      message:
        "Callback scopes are limited to what this credential holds itself; refused: provision.session.read, provision.usage.read.",
      issues: [
        { path: "body.callbackScopes", message: "provision.session.read is not granted to this credential" },
        { path: "body.callbackScopes", message: "provision.usage.read is not granted to this credential" },
      ],
    });
    expect(
      await refusalOf(() =>
        assertCallbackScopesGrantable(ctx, { surface: "integrator" } as never, ["provision.session.read"]),
      ),
    ).toEqual({
      codeName: "subscription.callback_scope_not_granted",
      message:
        "This integration may request only the callback scopes the tenant's administrator allowed it (none); refused: provision.session.read.",
      issues: [
        { path: "body.callbackScopes", message: "provision.session.read is not granted to this credential" },
      ],
    });
  });
});

describe("event type patterns (docs/api.md Subscriptions rule 2, 4035)", () => {
  const invalidType = (message: string): Problem => ({
    codeName: "subscription.invalid_event_type",
    message,
    issues: [{ path: "body.eventTypePatterns", message }],
  });

  it("each refusal says why", () => {
    expect(refusal(() => validateEventTypePatterns([]))).toEqual(
      invalidType("Give at least one event type, or * for all."),
    );
    expect(refusal(() => validateEventTypePatterns(["Webhooks.Registration.Challenge"]))).toEqual(
      invalidType(
        "Webhooks.Registration.Challenge is sent by verification only and cannot be subscribed to.",
      ),
    );
    expect(refusal(() => validateEventTypePatterns(["User.Created", "Entitlement.*"]))).toEqual(
      invalidType('"Entitlement.*": there are no family wildcards; list exact event types or use * for all.'),
    );
    expect(refusal(() => validateEventTypePatterns(["user.created"]))).toEqual(
      invalidType(
        '"user.created" is not an event type (see GET /api/v1/webhooks/schemas; names are case-sensitive).',
      ),
    );
  });

  it("keeps the order given, duplicates dropped", () => {
    expect(validateEventTypePatterns(["User.Updated", "User.Created", "User.Updated"])).toEqual([
      "User.Updated",
      "User.Created",
    ]);
    expect(validateEventTypePatterns(["*", "*"])).toEqual(["*"]);
  });

  it("the types a list covers: * every subscribable type, else the ones named", () => {
    expect(coveredEventTypes(["*"]).map((t) => t.type)).toEqual([
      "Entitlement.Activated",
      "Entitlement.PlanChangeReviewed",
      "Entitlement.SeatActivated",
      "Entitlement.SeatReleased",
      "Entitlement.DeviceReset",
      "Entitlement.Renewed",
      "Entitlement.DeviceBlocked",
      "Entitlement.DeviceUnblocked",
      "User.Created",
      "User.Updated",
      "User.Deleted",
      "Organization.Created",
      "Organization.Updated",
      "Organization.Deleted",
      "MeteredUsage.OverageStatusChanged",
      "Webhooks.Subscription.StateChanged",
    ]);
    expect(coveredEventTypes(["User.Created", "Nope", "Organization.Deleted"]).map((t) => t.type)).toEqual([
      "User.Created",
      "Organization.Deleted",
    ]);
  });

  it("a subscription matches its exact types (and * everything but the challenge)", () => {
    expect(patternsMatch(["User.Created", "User.Updated"], "User.Updated")).toBe(true);
    expect(patternsMatch(["User.Created"], "Webhooks.Registration.Challenge")).toBe(false);
    expect(patternsMatch([], "User.Created")).toBe(false);
  });
});

describe("subscription filters (docs/api.md Subscriptions rules 3-5, 4034)", () => {
  const invalidFilter = (path: string, message: string): Problem => ({
    codeName: "subscription.invalid_filter",
    message,
    issues: [{ path: `body.filters.${path}`, message }],
  });

  it("each filter that could never match is refused, naming the field", () => {
    expect(refusal(() => validateFilters({ entityKinds: [""] }, ["*"]))).toEqual(
      invalidFilter("entityKinds", "An entity kind cannot be empty."),
    );
    expect(
      refusal(() => validateFilters({ entityKinds: ["organization"] }, ["User.Created", "User.Deleted"])),
    ).toEqual(
      invalidFilter(
        "entityKinds",
        'No subscribed event type is about entity kind "organization" (subscribed types cover: user).',
      ),
    );
    expect(refusal(() => validateFilters({ severities: ["High"] }, ["User.Created"]))).toEqual(
      invalidFilter(
        "severities",
        "No subscribed event type carries a severity (only MeteredUsage.OverageStatusChanged does).",
      ),
    );
    expect(refusal(() => validateFilters({ severities: [""] }, ["*"]))).toEqual(
      invalidFilter("severities", "A severity cannot be empty."),
    );
    expect(refusal(() => validateFilters({ severities: ["high"] }, ["*"]))).toEqual(
      invalidFilter("severities", '"high" is not an overage severity (None, Low, Medium, High, Critical).'),
    );
    expect(refusal(() => validateFilters({ attributeEquality: { "a.": "x" } }, ["*"]))).toEqual(
      invalidFilter("attributeEquality", '"a." has an empty field name.'),
    );
    expect(refusal(() => validateFilters({ attributeEquality: { planCode: null } }, ["*"]))).toEqual(
      invalidFilter("attributeEquality.planCode", 'The value for "planCode" is null; null never matches.'),
    );
    expect(
      refusal(() => validateFilters({ attributeEquality: { email: "x" } }, ["Entitlement.Activated"])),
    ).toEqual(
      invalidFilter(
        "attributeEquality.email",
        'No subscribed event type carries "email" as a string, number or boolean (names are case-sensitive; objects and arrays never match).',
      ),
    );
  });

  it("valid filters come back normalised: duplicates dropped, empty parts left out", () => {
    expect(
      validateFilters(
        {
          entityKinds: ["monitored-asset", "monitored-asset"],
          severities: ["High", "Critical", "High"],
          attributeEquality: { metricName: "api-calls" },
        },
        ["MeteredUsage.OverageStatusChanged"],
      ),
    ).toEqual({
      entityKinds: ["monitored-asset"],
      severities: ["High", "Critical"],
      attributeEquality: { metricName: "api-calls" },
    });
    expect(validateFilters({ entityKinds: ["user"] }, ["User.Created"])).toEqual({ entityKinds: ["user"] });
    expect(validateFilters({ severities: ["Low"] }, ["*"])).toEqual({ severities: ["Low"] });
    expect(validateFilters(null, ["*"])).toBeNull();
    expect(validateFilters(undefined, ["*"])).toBeNull();
    expect(validateFilters({}, ["*"])).toBeNull();
  });

  it("a severity filter needs the event to carry a severity it lists", () => {
    const overage = (severity: unknown) => ({ entitykind: "monitored-asset", data: { severity } });
    expect(filtersMatch({ severities: ["High"] }, overage("High"))).toBe(true);
    expect(filtersMatch({ severities: ["High"] }, overage("Low"))).toBe(false);
    expect(filtersMatch({ severities: ["High"] }, overage(undefined))).toBe(false);
    expect(filtersMatch({ severities: [] }, overage("Low"))).toBe(true);
    expect(filtersMatch({ entityKinds: [] }, overage("Low"))).toBe(true);
    expect(filtersMatch({ entityKinds: ["monitored-asset"] }, overage("Low"))).toBe(true);
    expect(filtersMatch({}, overage("Low"))).toBe(true);
  });

  it("field text: numbers as JSON writes them, non-finite numbers and inherited properties have none", () => {
    expect(fieldText({ n: 1.5e21 }, "n")).toBe("1.5e+21");
    expect(fieldText({ n: -0.5 }, "n")).toBe("-0.5");
    expect(fieldText({ n: Number.POSITIVE_INFINITY }, "n")).toBeUndefined();
    expect(fieldText({ n: Number.NaN }, "n")).toBeUndefined();
    expect(fieldText({ b: false }, "b")).toBe("false");
    expect(fieldText({ b: true }, "b")).toBe("true");
    expect(fieldText({}, "toString")).toBeUndefined();
    expect(fieldText({ a: null }, "a.b")).toBeUndefined();
    expect(fieldText({ a: "text" }, "a.length")).toBeUndefined();
    expect(fieldText(null, "a")).toBeUndefined();
  });
});

describe("subscription states: the refusals' details, and who takes deliveries", () => {
  const s = (
    state: StateSnapshot["state"],
    resumeState: StateSnapshot["resumeState"] = null,
  ): StateSnapshot => ({
    state,
    resumeState,
  });
  const invalidState = (message: string): Problem => ({ codeName: "subscription.invalid_state", message });

  it.each([
    [
      s("PendingVerification"),
      "enable",
      "A subscription in PendingVerification can only be verified or deleted; enable is refused.",
    ],
    [
      s("PendingVerification"),
      "disable",
      "A subscription in PendingVerification can only be verified or deleted; disable is refused.",
    ],
    [
      s("Suspended", "Active"),
      "enable",
      "The subscription is Suspended by the tenant administrator; enable is refused.",
    ],
    [
      s("Suspended", "Active"),
      "disable",
      "The subscription is Suspended by the tenant administrator; disable is refused.",
    ],
    [
      s("Suspended", "Active"),
      "verified",
      "The subscription is Suspended by the tenant administrator; verify is refused.",
    ],
  ] as const)("%o --%s--> 409", (from, trigger, message) => {
    expect(refusal(() => transition(from, trigger))).toEqual(invalidState(message));
  });

  it.each([
    [s("Disabled"), "disable", s("Disabled")],
    [s("Active"), "verified", s("Active")],
    [s("Disabled"), "verified", s("Disabled")],
    [s("PendingVerification"), "urlChanged", s("PendingVerification")],
    [s("Active"), "suspend", s("Suspended", "Active")],
    [s("PendingVerification"), "suspend", s("Suspended", "PendingVerification")],
    [s("Suspended", "Disabled"), "suspend", s("Suspended", "Disabled")],
    [s("Suspended", "PendingVerification"), "resume", s("PendingVerification")],
    [s("Suspended"), "resume", s("Active")],
    [s("Disabled"), "resume", s("Disabled")],
  ] as const)("%o --%s--> %o", (from, trigger, to) => {
    expect(transition(from, trigger)).toEqual(to);
  });

  it("only Active subscriptions take deliveries", () => {
    expect(["Active", "Disabled", "PendingVerification", "Suspended"].map(takesDeliveries)).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });
});

describe("signing (docs/api.md Signing), against an HMAC-SHA256 computed here", () => {
  const KEY = Buffer.alloc(24, 7);
  const SECRET = `whsec_${KEY.toString("base64")}`;
  const OTHER_KEY = Buffer.alloc(32, 9);
  const OTHER = `whsec_${OTHER_KEY.toString("base64")}`;
  const hmac = (key: Buffer, content: string) =>
    `v1,${createHmac("sha256", key).update(content, "utf8").digest("base64")}`;

  it("a signature is v1, + base64 HMAC-SHA256 of {id}.{timestamp}.{body}", () => {
    expect(signatureOf(KEY, "msg_1", 1700000000, '{"a":1}')).toBe(hmac(KEY, 'msg_1.1700000000.{"a":1}'));
    expect(signatureHeader([SECRET, "not-a-secret", OTHER], "msg_1", 1700000000, "{}")).toBe(
      `${hmac(KEY, "msg_1.1700000000.{}")} ${hmac(OTHER_KEY, "msg_1.1700000000.{}")}`,
    );
    expect(signatureHeader([], "msg_1", 1700000000, "{}")).toBe("");
  });

  it("a header matches when any v1 signature matches any secret; other versions and texts do not", () => {
    const good = hmac(KEY, "id.1.{}");
    expect(signatureMatches([SECRET], "id", 1, "{}", `v0,xyz ${good}`)).toBe(true);
    expect(signatureMatches(["not-a-secret", SECRET], "id", 1, "{}", good)).toBe(true);
    expect(signatureMatches([SECRET], "id", 1, "{}", good.replace("v1,", "v2,"))).toBe(false);
    expect(signatureMatches([SECRET], "id", 1, "{}", `${good}x`)).toBe(false);
    expect(signatureMatches([SECRET], "id", 1, "{}", undefined)).toBe(false);
    expect(signatureMatches([SECRET], "id", 1, "{}", "")).toBe(false);
    expect(signatureMatches([], "id", 1, "{}", good)).toBe(false);
    expect(signatureMatches([SECRET], "id", 1, "{} ", good)).toBe(false);
  });

  it("a secret's key is its decoded base64; anything else is refused with 400", () => {
    expect(signingKey(SECRET)).toEqual(KEY);
    expect(signingKey(`WHSEC_${KEY.toString("base64")}`)).toBeNull();
    expect(signingKey(`whsec_${Buffer.alloc(25, 7).toString("base64")}`)).toEqual(Buffer.alloc(25, 7));
    expect(signingKey(`whsec_${Buffer.alloc(25, 7).toString("base64")}=`)).toBeNull();
    expect(signingKey(`whsec_${Buffer.alloc(24, 7).toString("base64url")}_`)).toBeNull();
    expect(signingKey(`x${SECRET}`)).toBeNull();
    expect(validateSigningSecret(SECRET)).toBe(SECRET);
    expect(refusal(() => validateSigningSecret("whsec_abc"))).toEqual({
      codeName: "subscription.invalid_secret",
      message: "A signing secret is whsec_ followed by standard base64 of 24 to 64 random bytes.",
      issues: [{ path: "body.secret", message: "malformed signing secret" }],
    });
  });
});

describe("the envelope and the delivery request (docs/api.md Envelope, Delivery headers)", () => {
  const fields = {
    id: "env_1",
    tenantId: "t1",
    type: "User.Created",
    time: new Date("2026-01-01T00:00:00.000Z"),
    subject: "users/u1",
    entityKind: "user",
    entityId: "u1",
    eventVersion: 1,
    data: { userId: "u1" },
  };

  it("the envelope's attributes, in their fixed order, a replay naming its original", () => {
    expect(envelopeSource("t1")).toBe("urn:licensing:tenant:t1");
    expect(serializeEnvelope(buildEnvelope(fields))).toBe(
      '{"specversion":"1.0","id":"env_1","source":"urn:licensing:tenant:t1","type":"User.Created","time":"2026-01-01T00:00:00.000Z","subject":"users/u1","datacontenttype":"application/json","tenantid":"t1","entitykind":"user","entityid":"u1","eventversion":1,"data":{"userId":"u1"}}',
    );
    expect(serializeEnvelope(buildEnvelope({ ...fields, id: "env_2", replayOf: "env_1" }))).toBe(
      '{"specversion":"1.0","id":"env_2","source":"urn:licensing:tenant:t1","type":"User.Created","time":"2026-01-01T00:00:00.000Z","subject":"users/u1","datacontenttype":"application/json","tenantid":"t1","entitykind":"user","entityid":"u1","eventversion":1,"replayof":"env_1","data":{"userId":"u1"}}',
    );
    expect(buildEnvelope({ ...fields, replayOf: null })).not.toHaveProperty("replayof");
    expect(parseEnvelope('{"id":"env_1","data":{}}')).toEqual({ id: "env_1", data: {} });
  });

  it("the headers of an attempt", () => {
    const KEY = Buffer.alloc(24, 7);
    expect(
      deliveryHeaders({
        envelopeId: "env_1",
        eventType: "User.Created",
        tenantId: "t1",
        subscriptionId: "sub_1",
        attemptNumber: 3,
        timestamp: 1700000000,
        body: "{}",
        secrets: [`whsec_${KEY.toString("base64")}`],
      }),
    ).toEqual({
      "content-type": "application/cloudevents+json; charset=utf-8",
      "user-agent": "licensing-webhooks/1",
      "webhook-id": "env_1",
      "webhook-timestamp": "1700000000",
      "webhook-signature": `v1,${createHmac("sha256", KEY).update("env_1.1700000000.{}").digest("base64")}`,
      "webhook-event-type": "User.Created",
      "webhook-delivery-attempt": "3",
      "webhook-tenant": "t1",
      "webhook-subscription": "sub_1",
    });
  });

  it("the secrets that sign: the current one, and the previous one until its overlap ends", () => {
    withEnv({ APP_SECRET: "a-test-secret-of-at-least-thirty-two-chars" });
    const at = new Date("2026-01-01T00:00:00.000Z");
    const holder = (previousSecretExpiresAt: Date | null, current = true) => ({
      secretSealed: current ? seal("whsec_current") : null,
      previousSecretSealed: seal("whsec_previous"),
      previousSecretExpiresAt,
    });
    expect(liveSecrets(holder(new Date("2026-01-01T00:00:00.001Z")), at)).toEqual([
      "whsec_current",
      "whsec_previous",
    ]);
    expect(liveSecrets(holder(at), at)).toEqual(["whsec_current"]);
    expect(liveSecrets(holder(null), at)).toEqual(["whsec_current"]);
    expect(liveSecrets(holder(new Date("2026-02-01T00:00:00.000Z"), false), at)).toEqual(["whsec_previous"]);
    expect(
      liveSecrets(
        {
          secretSealed: seal("whsec_current"),
          previousSecretSealed: null,
          previousSecretExpiresAt: new Date("2027-01-01"),
        },
        at,
      ),
    ).toEqual(["whsec_current"]);
  });
});
