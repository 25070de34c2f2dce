import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import semver from "semver";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as {
  engines: { node: string };
};

/**
 * Packages that ask for a newer Node.js than ours and are never run by the service, its scripts or
 * its tests: `@prisma/streams-local` backs the Prisma CLI's `prisma dev` command (README "Run it").
 */
const neverRun = new Set(["@prisma/streams-local"]);

function installedPackages(): { name: string; node?: string }[] {
  const out: { name: string; node?: string }[] = [];
  const visit = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir)) {
      if (entry.startsWith(".")) continue;
      if (entry.startsWith("@")) {
        visit(path.join(dir, entry));
        continue;
      }
      const manifest = path.join(dir, entry, "package.json");
      if (existsSync(manifest)) {
        const m = JSON.parse(readFileSync(manifest, "utf8")) as {
          name?: string;
          engines?: { node?: string };
        };
        if (m.name) out.push({ name: m.name, node: m.engines?.node });
      }
      visit(path.join(dir, entry, "node_modules"));
    }
  };
  visit(path.join(root, "node_modules"));
  return out;
}

describe("the Node.js version the README states", () => {
  it("package.json asks for Node.js 20.19 or newer, and the machine running the tests has it", () => {
    expect(pkg.engines.node).toBe(">=20.19");
    expect(semver.satisfies(process.version, pkg.engines.node)).toBe(true);
  });

  it("every installed package the service may run accepts the oldest Node.js we state", () => {
    const oldest = semver.minVersion(pkg.engines.node)!.version;
    expect(oldest).toBe("20.19.0");
    const refusing = installedPackages()
      .filter((p) => p.node && !neverRun.has(p.name) && semver.validRange(p.node))
      .filter((p) => !semver.satisfies(oldest, p.node!, { includePrerelease: true }))
      .map((p) => `${p.name} (${p.node})`);
    expect(refusing).toEqual([]);
  });
});
