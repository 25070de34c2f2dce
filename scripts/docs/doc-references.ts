// Finds references that lead nowhere: a document the repository does not contain, a relative link
// to a missing file or heading, a quoted section that the cited document does not have, or a
// citation of the interface documents that live outside the repository. Run by
// tests/unit/docs-references.test.ts over README.md, docs/ and every source comment.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const SOURCE_DIRS = ["app", "server", "components", "scripts", "tests", "e2e", "prisma", "docs", ".ci"];
const ROOT_FILES = ["README.md", "next.config.ts", "proxy.ts", "playwright.config.ts", "vitest.config.ts"];
const TEXT = /\.(ts|tsx|mts|mjs|js|md|prisma|sql|css|sh|yaml|yml)$|^run$/;
// Applied migrations are history: their text is checksummed and never edited.
const SKIP_DIRS = new Set(["node_modules", "generated", ".next", "screenshots", "migrations", "dist"]);

export type DeadReference = { file: string; line: number; reference: string; why: string };

function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir)) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) {
        if (!SKIP_DIRS.has(entry)) walk(full);
      } else if (TEXT.test(entry)) out.push(full);
    }
  };
  for (const dir of SOURCE_DIRS) walk(path.join(root, dir));
  for (const file of ROOT_FILES) if (existsSync(path.join(root, file))) out.push(path.join(root, file));
  return out;
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, "")
    .replace(/[^\p{L}\p{N} -]/gu, "")
    .replace(/ /g, "-");
}

const headingsCache = new Map<string, { anchors: Set<string>; text: string }>();
function documentOf(file: string) {
  let doc = headingsCache.get(file);
  if (!doc) {
    const text = readFileSync(file, "utf8");
    const anchors = new Set(
      text
        .split("\n")
        .filter((l) => /^#{1,6} /.test(l))
        .map((l) => anchorOf(l.replace(/^#+ /, ""))),
    );
    doc = { anchors, text: text.toLowerCase().replace(/\s+/g, " ") };
    headingsCache.set(file, doc);
  }
  return doc;
}

// A cited document outside the repository (the interface documents the team works from).
const OUTSIDE = /\b(SPEC|DESIGN|STYLE)\.md\b|\.\.\/shared\//;
// `docs/x.md "Section"`, `docs/x.md, "Section"`, `docs/x.md's "Section"`, `docs/x.md section 5`.
const CITATION = /(docs\/[\w./-]+\.md)(?:'s)?(?:,|:)?(?: section (\d+)| ("[^"\n]{1,80}"))?/g;
// Markdown links with a relative target.
const LINK = /\]\((?!https?:|mailto:)([^)\s]+)\)/g;

export function findDeadReferences(root: string): DeadReference[] {
  const dead: DeadReference[] = [];
  for (const file of listFiles(root)) {
    const rel = path.relative(root, file);
    if (rel === "scripts/docs/doc-references.ts") continue;
    const lines = readFileSync(file, "utf8").split("\n");
    lines.forEach((line, i) => {
      const at = { file: rel, line: i + 1 };
      const outside = OUTSIDE.exec(line);
      if (outside)
        dead.push({ ...at, reference: outside[0], why: "cites a document outside the repository" });
      for (const m of line.matchAll(CITATION)) {
        const target = path.join(root, m[1]);
        if (!existsSync(target)) {
          dead.push({ ...at, reference: m[1], why: "no such document" });
          continue;
        }
        const doc = documentOf(target);
        if (m[2] && ![...doc.anchors].some((a) => a.startsWith(`${m[2]}-`)))
          dead.push({ ...at, reference: m[0], why: `no section ${m[2]} in ${m[1]}` });
        if (m[3] && !doc.text.includes(m[3].slice(1, -1).toLowerCase().replace(/\s+/g, " ")))
          dead.push({ ...at, reference: m[0], why: `${m[1]} does not contain ${m[3]}` });
      }
      if (!rel.endsWith(".md")) return;
      for (const m of line.matchAll(LINK)) {
        const [target, anchor] = m[1].split("#");
        const resolved = target ? path.join(path.dirname(file), target) : file;
        if (!existsSync(resolved)) {
          dead.push({ ...at, reference: m[1], why: "link to a missing file" });
        } else if (anchor && resolved.endsWith(".md") && !documentOf(resolved).anchors.has(anchor)) {
          dead.push({ ...at, reference: m[1], why: "link to a missing heading" });
        }
      }
    });
  }
  return dead;
}
