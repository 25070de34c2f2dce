import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The project's root (the folder holding package.json) above a module's URL: the same answer from
 * the TypeScript source (server/…, scripts/…) and from its compiled copy in dist/, which sits at
 * another depth.
 */
export function packageRoot(moduleUrl: string): string {
  let dir = path.dirname(fileURLToPath(moduleUrl));
  while (!existsSync(path.join(dir, "package.json"))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${moduleUrl}`);
    dir = up;
  }
  return dir;
}
