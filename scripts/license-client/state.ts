import { existsSync } from "node:fs";
import { readFile, rename, writeFile } from "node:fs/promises";
import type { JSONWebKeySet } from "jose";
import { ClientError, EXIT } from "./errors.ts";

export const DEFAULT_STATE_FILE = ".license-client.json";

/**
 * What the client keeps between runs: where its service is, its session and license token, and the
 * tenant's key set so `verify` works with the server down. The token is a bearer credential, so the
 * file is written owner-only.
 */
export type ClientState = {
  url: string;
  tenantId: string;
  sessionId: string;
  token: string;
  jwks: JSONWebKeySet;
  jwksFetchedAt: string;
};

export async function readState(file: string): Promise<ClientState> {
  if (!existsSync(file))
    throw new ClientError(EXIT.notActivated, `No license state at ${file}: run \`activate\` first.`);
  try {
    const state = JSON.parse(await readFile(file, "utf8")) as ClientState;
    if (
      typeof state.token !== "string" ||
      typeof state.sessionId !== "string" ||
      typeof state.url !== "string" ||
      !Array.isArray(state.jwks?.keys)
    )
      throw new Error("missing fields");
    return state;
  } catch (error) {
    throw new ClientError(
      EXIT.notActivated,
      `The license state at ${file} is unreadable (${error instanceof Error ? error.message : String(error)}): run \`activate\` again.`,
    );
  }
}

/** Written to a temporary file and renamed, so a crash never leaves half a state file. */
export async function writeState(file: string, state: ClientState): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await rename(temp, file);
}
