// npm run docs:reference: rewrites what the docs copy from the code: the generated tables of
// docs/api.md (from the route contracts and catalogs) and the code blocks of docs/guides/*.md
// (from docs/guides/examples, which the tests run).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { withReferenceTables } from "./docs/reference-tables.ts";
import { withIncludes } from "./docs/guide-includes.ts";

const docs = fileURLToPath(new URL("../docs/", import.meta.url));
const api = path.join(docs, "api.md");
writeFileSync(api, withReferenceTables(readFileSync(api, "utf8")));
const guides = path.join(docs, "guides");
for (const name of readdirSync(guides).filter((f) => f.endsWith(".md"))) {
  const file = path.join(guides, name);
  writeFileSync(file, withIncludes(readFileSync(file, "utf8"), file));
}
process.stdout.write("docs/api.md tables and docs/guides code blocks rewritten\n");
