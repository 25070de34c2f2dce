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
