import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((entry) => {
    const rel = path.posix.join(dir, entry);
    if (statSync(path.join(root, rel)).isDirectory())
      return rel.endsWith("generated") ? [] : sourceFiles(rel);
    return /\.tsx?$/.test(entry) ? [rel] : [];
  });
}

/** Every module a file imports, as a repo-relative path (or the bare package name). */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(root, file), "utf8");
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

function offending(files: string[], forbidden: RegExp): string[] {
  return files.flatMap((file) =>
    importsOf(file)
      .filter((target) => forbidden.test(target))
      .map((target) => `${file} -> ${target}`),
  );
}

describe("layering (DESIGN.md section 3)", () => {
  it("server/core is neutral: it imports neither the transports, the domain, the database nor Prisma", () => {
    expect(
      offending(sourceFiles("server/core"), /^(server\/(http|trpc|domain|db|jobs)\/|@prisma\/|prisma$)/),
    ).toEqual([]);
  });

  it("server/domain imports no transport (server/http, server/trpc) and no job handler", () => {
    expect(offending(sourceFiles("server/domain"), /^server\/(http|trpc|jobs)\//)).toEqual([]);
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
        return importsOf(file)
          .map((target) => ({ target, to: unitOf(target) }))
          .filter(({ to }) => to !== undefined && to !== from && rankOf(to) <= rankOf(from))
          .map(({ target }) => `${file} -> ${target}`);
      });
    expect(upward).toEqual([]);
  });
});
