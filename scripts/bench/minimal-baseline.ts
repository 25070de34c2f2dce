// Runs the minimal-work baseline (scripts/bench/minimal-baseline-server.ts) as its own process on
// the bench's database and measures it with the same load generator as our server: the runtime
// bench's activation, renew and check-in, the metering bench's consume.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import type { AutocannonRequest } from "autocannon";
import { repoRoot } from "../lib/runtime-env.ts";
import { withCpu, type CpuShare } from "./cpu.ts";
import { load, type LoadResult } from "./load.ts";
import type { MinimalSetup } from "./minimal-baseline-server.ts";

export type MinimalLoad = LoadResult & { cpu: CpuShare };
type Session = { sessionId: string; token: string };

export async function startMinimalBaseline(databaseUrl: string, setup: MinimalSetup) {
  const file = path.join(tmpdir(), `bench-minimal-${process.pid}-${randomUUID()}.json`);
  await writeFile(file, JSON.stringify(setup));
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/bench/minimal-baseline-server.ts"], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: "production", MINIMAL_SETUP: file },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`minimal baseline exited with ${code}`)));
    createInterface({ input: child.stdout! }).once("line", (line) => resolve((JSON.parse(line) as { port: number }).port));
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const measure = (request: AutocannonRequest): Promise<MinimalLoad> => withCpu(databaseUrl, port, () => load(baseUrl, request));
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  };
  /** A baseline that fails does no work: every request must succeed once before it is measured. */
  const smoke = async (method: string, p: string, headers: Record<string, string>, body?: string) => {
    const res = await fetch(`${baseUrl}${p}`, { method, headers, body });
    if (!res.ok) throw new Error(`minimal baseline ${p}: ${res.status} ${await res.text()}`);
  };
  return { baseUrl, port, measure, stop, smoke };
}

const json = { "content-type": "application/json" };

export function minimalActivation(license: "0" | "spread"): AutocannonRequest {
  return {
    method: "POST",
    path: `/activate?license=${license}`,
    headers: json,
    setupRequest: (req) => ({ ...req, body: JSON.stringify({ activationCode: "unused", fingerprint: `minimal-${randomUUID()}` }) }),
  };
}

/** Requests cycling through the sessions with their own tokens: `/{op}/{sessionId}{suffix}`. */
export function minimalSessionCalls(op: "renew" | "check-in" | "consume", sessions: Session[], suffix = ""): AutocannonRequest {
  let next = 0;
  return {
    method: "POST",
    setupRequest: (req) => {
      const s = sessions[next++ % sessions.length];
      return { ...req, path: `/${op}/${s.sessionId}${suffix}`, headers: { authorization: `Bearer ${s.token}` } };
    },
  };
}

/** Our requests/s over the minimal baseline's. */
export const minimalRatio = (ours: LoadResult, minimal: LoadResult) =>
  Math.round((ours.requestsPerSecond / Math.max(1, minimal.requestsPerSecond)) * 100) / 100;
