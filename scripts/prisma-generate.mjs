// Prisma's CLI insists that a schema engine binary exists before it generates, but generation
// itself needs none; the engine cannot be downloaded here (docs/architecture.md section 2).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = `${root}/node_modules/prisma/build/index.js`;
if (!existsSync(cli)) process.exit(0);
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= fileURLToPath(import.meta.url);
execFileSync(process.execPath, [cli, "generate"], { cwd: root, env, stdio: "inherit" });
