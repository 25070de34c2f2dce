// The guides show code that tests run: a guide holds `<!-- include: examples/FILE.ts#REGION -->`
// followed by a fenced block and `<!-- /include -->`, and the block is the text between
// `// #region REGION` and `// #endregion` in docs/guides/examples/FILE.ts (the whole file without
// `#REGION`). `npm run docs:reference` rewrites the blocks; tests/unit/docs-references.test.ts
// fails when a guide shows code that differs from the file the tests run.
import { readFileSync } from "node:fs";
import path from "node:path";

const INCLUDE = /<!-- include: ([\w./-]+?)(?:#([\w-]+))? -->\n[\s\S]*?<!-- \/include -->/g;

export function regionOf(source: string, region: string | undefined, where: string): string {
  const lines = source.split("\n");
  if (!region)
    return lines
      .filter((l) => !/^\s*\/\/ #(end)?region\b/.test(l))
      .join("\n")
      .trimEnd();
  const start = lines.findIndex((l) => l.trim() === `// #region ${region}`);
  if (start < 0) throw new Error(`${where} has no region ${region}`);
  const end = lines.findIndex((l, i) => i > start && l.trim() === "// #endregion");
  if (end < 0) throw new Error(`${where}: region ${region} is not closed`);
  return lines
    .slice(start + 1, end)
    .filter((l) => !/^\s*\/\/ #(end)?region\b/.test(l))
    .join("\n")
    .trimEnd();
}

/** The guide with every include block holding the current code of its region. */
export function withIncludes(markdown: string, guideFile: string): string {
  return markdown.replace(INCLUDE, (_m, file: string, region: string | undefined) => {
    const source = readFileSync(path.join(path.dirname(guideFile), file), "utf8");
    const code = regionOf(source, region, file);
    return `<!-- include: ${file}${region ? `#${region}` : ""} -->\n\`\`\`ts\n${code}\n\`\`\`\n<!-- /include -->`;
  });
}
