import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Source files under `dir`, tests left out (a test may reach anything it checks). */
function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((entry) => {
    const rel = path.posix.join(dir, entry);
    if (statSync(path.join(root, rel)).isDirectory())
      return rel.endsWith("generated") ? [] : sourceFiles(rel);
    return /\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry) ? [rel] : [];
  });
}

/** Every module a file's text imports, as a repo-relative path (or the bare package name). */
export function importsIn(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)["']([^"'\n]+)["']/g)].map(
    (m) => m[1],
  );
  return specifiers.map((s) =>
    s.startsWith("@/")
      ? s.slice(2)
      : s.startsWith(".")
        ? path.posix.normalize(path.posix.join(path.posix.dirname(file), s))
        : s,
  );
}

const read = (file: string) => readFileSync(path.join(root, file), "utf8");

function offending(files: string[], forbidden: RegExp, text = read): string[] {
  return files.flatMap((file) =>
    importsIn(file, text(file))
      .filter((target) => forbidden.test(target))
      .map((target) => `${file} -> ${target}`),
  );
}

/**
 * The domain areas in one declared order, lowest first: an area imports only areas before it.
 * `server/domain/context.ts` and `server/domain/staff-role.ts` are the core concepts below every
 * area; `server/domain/cross-tenant.ts` (the entry points that name no tenant) is above all.
 */
export const AREA_ORDER = [
  "audit",
  "rate-limits",
  "catalog",
  "identity",
  "webhooks",
  "pricing",
  "customers",
  "entitlements",
  "licensing",
  "metering",
  "reports",
  "operations",
  "portability",
] as const;
const CORE = new Set(["server/domain/context.ts", "server/domain/staff-role.ts"]);
const TOP = "server/domain/cross-tenant.ts";

/**
 * Imports against the order that stay, each with why (a new one fails the test):
 * - registering a customer user issues the offer the registration names (an entitlement) in the
 *   same transaction;
 * - revoking an integration's credential disables its webhook subscriptions in the same
 *   transaction (docs/security.md "Webhooks"), also when the revocation follows its creator being
 *   disabled or demoted (docs/security.md "Round 3").
 */
const KNOWN_AGAINST_ORDER = [
  "server/domain/customers/customer-users.ts -> server/domain/entitlements/registration/issue-on-registration.ts",
  "server/domain/identity/creator-clients.ts -> server/domain/webhooks/subscriptions/disable-revoked-client-subscriptions.ts",
  "server/domain/identity/oauth-clients.ts -> server/domain/webhooks/subscriptions/disable-revoked-client-subscriptions.ts",
];

const areaOf = (file: string): string | null => {
  const match = /^server\/domain\/([^/]+)\//.exec(file);
  return match ? match[1] : null;
};

/** Every import of a domain file that goes up the declared order (or out of it). */
export function importsAgainstOrder(files: string[], text: (file: string) => string = read): string[] {
  const rank = (file: string) => {
    if (CORE.has(file)) return -1;
    if (file === TOP || file.replace(/\.tsx?$/, ".ts") === TOP) return AREA_ORDER.length;
    const area = areaOf(file);
    const at = area === null ? -2 : (AREA_ORDER as readonly string[]).indexOf(area);
    return at === -1 ? Infinity : at;
  };
  return files.flatMap((file) =>
    importsIn(file, text(file))
      .filter((target) => target.startsWith("server/domain/"))
      .map((target) => (target.endsWith(".ts") ? target : `${target}.ts`))
      .filter((target) => {
        const from = rank(file);
        const to = rank(target);
        if (from === Infinity || to === Infinity) return true;
        return areaOf(file) !== areaOf(target) && to >= from && !(CORE.has(file) && CORE.has(target));
      })
      .map((target) => `${file} -> ${target}`),
  );
}

/** Raw SQL runs through server/db/sql.ts: the domain reaches no pool, no pg client and no bridge. */
export const RAW_SQL_OUTSIDE_HANDLE = /^(pg|server\/db\/pool(\.ts)?|server\/db\/pg-prisma-bridge(\.ts)?)$/;

describe("layering (docs/architecture.md section 3)", () => {
  it("server/core is neutral: it imports neither the transports, the domain, the database nor Prisma", () => {
    expect(
      offending(sourceFiles("server/core"), /^(server\/(http|trpc|domain|db|jobs)\/|@prisma\/|prisma$)/),
    ).toEqual([]);
  });

  it("server/domain imports no transport (server/http, server/trpc) and no job handler", () => {
    expect(offending(sourceFiles("server/domain"), /^server\/(http|trpc|jobs)\//)).toEqual([]);
  });

  it("server/domain runs raw SQL only through the handle of server/db/sql.ts (sqlOf(ctx.db)): no pool, pg or bridge", () => {
    expect(offending(sourceFiles("server/domain"), RAW_SQL_OUTSIDE_HANDLE)).toEqual([]);
  });

  it("the domain areas import only areas before them in AREA_ORDER, and every area is in it", () => {
    const areas = readdirSync(path.join(root, "server/domain")).filter((entry) =>
      statSync(path.join(root, "server/domain", entry)).isDirectory(),
    );
    expect([...areas].sort()).toEqual([...AREA_ORDER].sort());
    expect(importsAgainstOrder(sourceFiles("server/domain"))).toEqual(KNOWN_AGAINST_ORDER);
  });

  it("no domain area folder holds more than 25 files without subfolders", () => {
    const crowded = readdirSync(path.join(root, "server/domain"))
      .filter((area) => statSync(path.join(root, "server/domain", area)).isDirectory())
      .map((area) => ({
        area,
        files: readdirSync(path.join(root, "server/domain", area)).filter((f) => /\.tsx?$/.test(f)).length,
      }))
      .filter(({ files }) => files > 25);
    expect(crowded).toEqual([]);
  });
});

describe("the rules above fail on an offending import (a test of the test)", () => {
  /** The tree's own files, with `extra` prepended to one file's text. */
  const withImport = (file: string, extra: string) => (f: string) =>
    f === file ? `${extra}\n${read(f)}` : read(f);

  it("an area importing a later area is reported", () => {
    const file = "server/domain/catalog/products/product-lock.ts";
    const text = withImport(file, 'import { activate } from "../../licensing/activation/activate.ts";');
    expect(importsAgainstOrder([file], read)).toEqual([]);
    expect(importsAgainstOrder([file], text)).toEqual([
      "server/domain/catalog/products/product-lock.ts -> server/domain/licensing/activation/activate.ts",
    ]);
  });

  it("core concepts importing an area is reported (the context ↔ staff-roles circle)", () => {
    const file = "server/domain/context.ts";
    const text = withImport(
      file,
      'import type { StaffPermission } from "./identity/staff-roles/staff-roles.ts";',
    );
    expect(importsAgainstOrder([file], read)).toEqual([]);
    expect(importsAgainstOrder([file], text)).toEqual([
      "server/domain/context.ts -> server/domain/identity/staff-roles/staff-roles.ts",
    ]);
  });

  it("a domain file importing the process pool, pg or the Prisma bridge is reported", () => {
    const file = "server/domain/metering/consumption/consume-metric.ts";
    const text = withImport(
      file,
      'import { pgPool } from "../../../db/pool.ts";\nimport type pg from "pg";\nimport { withPrismaOnPgClient } from "../../../db/pg-prisma-bridge.ts";',
    );
    expect(offending([file], RAW_SQL_OUTSIDE_HANDLE)).toEqual([]);
    expect(offending([file], RAW_SQL_OUTSIDE_HANDLE, text)).toEqual([
      `${file} -> server/db/pool.ts`,
      `${file} -> pg`,
      `${file} -> server/db/pg-prisma-bridge.ts`,
    ]);
  });
});

// Imports run downward only (issue 26): each group may import its own folder and the groups below it,
// never one above it nor a neighbour in its own group.
describe("no import runs upward", () => {
  const layers: string[][] = [
    ["app"],
    ["components"],
    ["server/web"],
    ["server/trpc", "server/worker.ts"],
    ["server/http", "server/auth", "server/jobs"],
    ["server/domain"],
    ["server/db", "server/crypto"],
    ["server/core", "server/log.ts", "server/clock.ts"],
    ["server/config.ts"],
  ];
  /** The layer unit a repo path (with or without its extension) belongs to. */
  const unitOf = (file: string) => {
    const bare = file.replace(/\.tsx?$/, "");
    return layers.flat().find((unit) => bare === unit.replace(/\.ts$/, "") || bare.startsWith(`${unit}/`));
  };
  const rankOf = (unit: string) => layers.findIndex((group) => group.includes(unit));
  const existing = (unit: string) => (unit.endsWith(".ts") ? [unit] : sourceFiles(unit));

  it("every import of app, components and server goes to its own unit or a lower layer", () => {
    const upward = layers
      .flat()
      .flatMap(existing)
      .flatMap((file) => {
        const from = unitOf(file)!;
        return importsIn(file, read(file))
          .map((target) => ({ target, to: unitOf(target) }))
          .filter(({ to }) => to !== undefined && to !== from && rankOf(to) <= rankOf(from))
          .map(({ target }) => `${file} -> ${target}`);
      });
    expect(upward).toEqual([]);
  });
});
