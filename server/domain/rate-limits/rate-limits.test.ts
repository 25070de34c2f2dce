import { createHash } from "node:crypto";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  counterRows,
  countedRateLimits,
  countRateLimits,
  hitRateLimits,
  hitValues,
  rateLimitCountCte,
  rateLimitStates,
  type CounterRow,
} from "./hit-rate-limits.ts";
import { parseRateLimitSetting, rateLimitsEnabled, servicePolicies } from "./rate-limit-policies.ts";

/**
 * The rate limits' rules (docs/security.md "Rate limits") that run outside the counting statement:
 * the RATE_LIMITS setting, the statement's parameters and what a counter row means. The statement
 * itself is tried against PostgreSQL by the integration suite.
 */
const SETTING = "activation.ip=1000/60, usage.session=1200/30";
const saved = process.env.RATE_LIMITS;

// servicePolicies() reads the setting once per process: the first read sees this one. (Set here,
// not read in a hook: a hook that throws under a mutant skips the tests, which Stryker counts as
// the mutant surviving.)
process.env.RATE_LIMITS = SETTING;
/** Limits switched off, after the service policies were read with SETTING. */
const switchOff = () => {
  servicePolicies();
  process.env.RATE_LIMITS = "off";
};
afterEach(() => {
  process.env.RATE_LIMITS = SETTING;
});
afterAll(() => {
  if (saved === undefined) delete process.env.RATE_LIMITS;
  else process.env.RATE_LIMITS = saved;
});

const KNOWN =
  "activation.ip, activation.code, token.client, token.failed_secret, usage.session, signin.failed_password";
const refused = (entry: string) =>
  `RATE_LIMITS: "${entry}" is not name=limit/windowSeconds with a known name (${KNOWN}).`;

describe("the RATE_LIMITS setting", () => {
  it("name=limit/windowSeconds entries separated by commas, blanks and empty entries ignored", () => {
    expect(parseRateLimitSetting(" activation.ip=1000/60 , usage.session=1200/30 ,, ")).toEqual({
      "activation.ip": { limit: 1000, windowSeconds: 60 },
      "usage.session": { limit: 1200, windowSeconds: 30 },
    });
    expect(parseRateLimitSetting("signin.failed_password=5/600")).toEqual({
      "signin.failed_password": { limit: 5, windowSeconds: 600 },
    });
  });

  it("unset or empty: nothing replaced", () => {
    expect(parseRateLimitSetting(undefined)).toEqual({});
    expect(parseRateLimitSetting("")).toEqual({});
    expect(parseRateLimitSetting(" , ")).toEqual({});
  });

  it("a window of a day and a limit of a billion at most, both at least 1", () => {
    expect(parseRateLimitSetting("token.client=1/86400,activation.code=1000000000/1")).toEqual({
      "token.client": { limit: 1, windowSeconds: 86_400 },
      "activation.code": { limit: 1_000_000_000, windowSeconds: 1 },
    });
    for (const entry of [
      "token.client=0/60",
      "token.client=10/0",
      "token.client=10/86401",
      "token.client=1000000001/60",
    ])
      expect(() => parseRateLimitSetting(entry)).toThrow(refused(entry));
  });

  it("an unknown name or a malformed entry is an error at start-up, naming the entry", () => {
    for (const entry of [
      "nope=1/1",
      "activation.ip=10",
      "activation.ip=10/60s",
      "xactivation.ip=10/60",
      "activation.ip = 10/60",
      "activation.ip=-1/60",
      "activation.ip=1.5/60",
      "x activation.ip=10/60",
      "activation.ip=10/60 x",
      "activation.ip=10/60x",
      "=10/60",
    ])
      expect(() => parseRateLimitSetting(`usage.session=1/1,${entry}`)).toThrow(refused(entry.trim()));
  });

  it("RATE_LIMITS=off switches every limit off; anything else leaves them on", () => {
    process.env.RATE_LIMITS = "off";
    expect(rateLimitsEnabled()).toBe(false);
    process.env.RATE_LIMITS = " off ";
    expect(rateLimitsEnabled()).toBe(false);
    process.env.RATE_LIMITS = "OFF";
    expect(rateLimitsEnabled()).toBe(true);
    process.env.RATE_LIMITS = "activation.ip=1/1";
    expect(rateLimitsEnabled()).toBe(true);
    delete process.env.RATE_LIMITS;
    expect(rateLimitsEnabled()).toBe(true);
  });

  it("the service-wide policies: the defaults with the setting applied", () => {
    expect(servicePolicies()).toEqual({
      "activation.ip": { limit: 1000, windowSeconds: 60 },
      "activation.code": { limit: 120, windowSeconds: 60 },
      "token.client": { limit: 300, windowSeconds: 60 },
      "token.failed_secret": { limit: 10, windowSeconds: 300 },
      "usage.session": { limit: 1200, windowSeconds: 30 },
      "signin.failed_password": { limit: 10, windowSeconds: 300 },
    });
  });
});

describe("the counting statement's parameters", () => {
  const AT = new Date("2026-01-01T00:00:30.000Z");
  const sha256 = (text: string) => `sha256:${createHash("sha256").update(text).digest("hex")}`;

  it("tenant, code lookup, client id, then per hit: name, bucket key, cost, limit and window", () => {
    expect(
      hitValues(
        { tenantId: "t1", codeLookupKey: "ABCD", clientId: "client-1" },
        [
          { name: "activation.ip", key: "10.0.0.1" },
          { name: "token.failed_secret", key: "client-1|10.0.0.1", cost: 0 },
          { name: "token.client", key: "client-1", cost: 1 },
        ],
        AT,
      ),
    ).toEqual([
      "t1",
      "ABCD",
      "client-1",
      ["activation.ip", "token.failed_secret", "token.client"],
      ["10.0.0.1", "client-1|10.0.0.1", "client-1"],
      AT,
      [1, 0, 1],
      [1000, 10, 300],
      [60, 300, 60],
    ]);
  });

  it("no tenant known: nulls for the statement to resolve or leave unresolved", () => {
    expect(hitValues({}, [{ name: "usage.session", key: "s1" }], AT)).toEqual([
      null,
      null,
      null,
      ["usage.session"],
      ["s1"],
      AT,
      [1],
      [1200],
      [30],
    ]);
  });

  it("a bucket key is kept when it is 1-128 printable ASCII characters, else stored as its SHA-256", () => {
    const keys = (key: string) => (hitValues({}, [{ name: "token.client", key }], AT)[4] as string[])[0];
    expect(keys("a".repeat(128))).toBe("a".repeat(128));
    expect(keys("!~")).toBe("!~");
    expect(keys("a".repeat(129))).toBe(sha256("a".repeat(129)));
    expect(keys("with space")).toBe(sha256("with space"));
    expect(keys("nul\u0000byte")).toBe(sha256("nul\u0000byte"));
    expect(keys("")).toBe(sha256(""));
    expect(keys("é")).toBe(sha256("é"));
  });

  it("a code lookup key or client id that could not be stored is looked up as null (matches nothing)", () => {
    const lookups = (value: string) =>
      hitValues({ codeLookupKey: value, clientId: value }, [], AT).slice(1, 3);
    expect(lookups("x".repeat(200))).toEqual(["x".repeat(200), "x".repeat(200)]);
    expect(lookups("x".repeat(201))).toEqual([null, null]);
    expect(lookups("with space")).toEqual([null, null]);
    expect(lookups("")).toEqual([null, null]);
  });

  it("limits switched off: the statement counts nothing", () => {
    switchOff();
    expect(hitValues({ tenantId: "t1" }, [{ name: "activation.ip", key: "k" }], AT)).toEqual([
      "t1",
      null,
      null,
      [],
      [],
      AT,
      [],
      [],
      [],
    ]);
  });

  it("limits counted already: the parameters count nothing, settling and enforcing do nothing", async () => {
    expect(countedRateLimits.values()).toEqual([null, null, null, [], [], new Date(0), [], [], []]);
    expect(countedRateLimits.settle([])).toBeUndefined();
    await expect(countedRateLimits.enforce()).resolves.toBeUndefined();
  });

  it("no hits, or limits off: nothing is counted and no statement runs", async () => {
    await expect(hitRateLimits({ tenantId: "t1" }, [])).resolves.toEqual([]);
    await expect(countRateLimits({ tenantId: "t1" }, [])).resolves.toEqual({ states: [], counters: [] });
    switchOff();
    await expect(countRateLimits({ tenantId: "t1" }, [{ name: "activation.ip", key: "k" }])).resolves.toEqual(
      { states: [], counters: [] },
    );
    await expect(hitRateLimits({ tenantId: "t1" }, [{ name: "activation.ip", key: "k" }])).resolves.toEqual(
      [],
    );
  });

  it("the count as CTEs of another statement: its nine parameters numbered from `first`", () => {
    const sql = rateLimitCountCte(10);
    for (const placeholder of [
      "$10::uuid",
      "$11::text",
      "$12::text",
      "$13::text[]",
      "$14::text[]",
      "$15::timestamptz",
      "$16::int[]",
      "$17::int[]",
      "$18::int[]",
    ])
      expect(sql).toContain(placeholder);
    expect(sql).not.toContain("$9");
    expect(sql).not.toContain("$19");
    expect(sql.startsWith("rl_tenant AS (")).toBe(true);
    expect(sql).toContain("), rl_limits AS (");
    expect(sql).toContain("CROSS JOIN rl_tenant t\n");
    expect(sql).toContain("FROM rl_limits r\n");
    expect(sql).toContain("), rl AS (\nINSERT INTO");
    expect(sql.endsWith("\n)")).toBe(true);
  });
});

describe("what a counter row after the bump means", () => {
  const START = new Date("2026-01-01T00:00:00.000Z");
  const at = (ms: number) => new Date(START.getTime() + ms);
  const row = (name: string, hits: number, limit = 10): CounterRow => ({
    bucket: `${name}:t1:key`,
    hits,
    limit,
    windowSeconds: 60,
    windowStart: START,
  });

  it("a counted hit is over when the count passes the limit; remaining never below 0", () => {
    const hits = [{ name: "activation.ip" as const, key: "k" }];
    expect(rateLimitStates(hits, [row("activation.ip", 3)], at(30_500))).toEqual([
      {
        name: "activation.ip",
        limit: 10,
        windowSeconds: 60,
        remaining: 7,
        resetSeconds: 30,
        exceeded: false,
      },
    ]);
    expect(rateLimitStates(hits, [row("activation.ip", 10)], at(30_500))).toEqual([
      {
        name: "activation.ip",
        limit: 10,
        windowSeconds: 60,
        remaining: 0,
        resetSeconds: 30,
        exceeded: false,
      },
    ]);
    expect(rateLimitStates(hits, [row("activation.ip", 11)], at(30_500))).toEqual([
      { name: "activation.ip", limit: 10, windowSeconds: 60, remaining: 0, resetSeconds: 30, exceeded: true },
    ]);
  });

  it("a read-only hit (cost 0, a back-off check) is over once the count has reached the limit", () => {
    const hits = [{ name: "token.failed_secret" as const, key: "k", cost: 0 as const }];
    expect(rateLimitStates(hits, [row("token.failed_secret", 9)], at(0))[0].exceeded).toBe(false);
    expect(rateLimitStates(hits, [row("token.failed_secret", 10)], at(0))[0].exceeded).toBe(true);
  });

  it("each hit reads its own limit's row, whatever the rows' order", () => {
    const states = rateLimitStates(
      [
        { name: "activation.code", key: "c" },
        { name: "activation.ip", key: "i" },
      ],
      [row("activation.ip", 5, 300), row("activation.code", 121, 120)],
      at(59_000),
    );
    expect(states).toEqual([
      {
        name: "activation.code",
        limit: 120,
        windowSeconds: 60,
        remaining: 0,
        resetSeconds: 1,
        exceeded: true,
      },
      {
        name: "activation.ip",
        limit: 300,
        windowSeconds: 60,
        remaining: 295,
        resetSeconds: 1,
        exceeded: false,
      },
    ]);
  });

  it("resetSeconds: seconds until the window ends, rounded up, at least 1", () => {
    const reset = (ms: number) =>
      rateLimitStates([{ name: "usage.session", key: "s" }], [row("usage.session", 1)], at(ms))[0]
        .resetSeconds;
    expect(reset(0)).toBe(60);
    expect(reset(1)).toBe(60);
    expect(reset(59_001)).toBe(1);
    expect(reset(60_000)).toBe(1);
    expect(reset(75_000)).toBe(1);
  });

  it("limits switched off: no states", () => {
    switchOff();
    expect(rateLimitStates([{ name: "usage.session", key: "s" }], [row("usage.session", 99)], at(0))).toEqual(
      [],
    );
  });

  it("the rows a hot statement returned as JSON read as counter rows", () => {
    expect(
      counterRows([
        { bucket: "usage.session:t1:s", hits: 2, limit: 600, windowSeconds: 60, windowStart: 1767225600000 },
      ]),
    ).toEqual([{ bucket: "usage.session:t1:s", hits: 2, limit: 600, windowSeconds: 60, windowStart: START }]);
  });
});
