// The runtime bench's "1 vs N web processes" report (docs/operations.md "Process model"): the same check-in and activation
// loads against one web process and against WEB_CONCURRENCY = the number of cores, each a server
// of its own on the bench's database, run one after the other.
import { randomUUID } from "node:crypto";
import { availableParallelism } from "node:os";
import type { AutocannonRequest } from "autocannon";
import { startTestServer } from "../../tests/helpers/test-server.ts";
import { load, type LoadResult } from "./load.ts";

export type ProcessesComparison = {
  processes: number;
  activation: LoadResult;
  checkIn: LoadResult;
}[];

const ACTIVATIONS = "/api/v1/provision/activations";

export async function compareWebProcesses(options: {
  databaseUrl: string;
  activationCode: string;
  sessions: { sessionId: string; token: string }[];
  log: (line: string) => void;
}): Promise<ProcessesComparison> {
  const out: ProcessesComparison = [];
  for (const processes of [...new Set([1, availableParallelism()])]) {
    options.log(`web processes: ${processes}`);
    const server = await startTestServer({
      databaseUrl: options.databaseUrl,
      extraEnv: { WEB_CONCURRENCY: String(processes) },
    });
    try {
      const activation = await load(server.baseUrl, {
        method: "POST",
        path: `${ACTIVATIONS}/jwt`,
        headers: { "content-type": "application/json" },
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ activationCode: options.activationCode, fingerprint: `bench-n-${randomUUID()}` }),
        }),
      });
      let next = 0;
      const checkInRequest: AutocannonRequest = {
        method: "POST",
        setupRequest: (req) => {
          const s = options.sessions[next++ % options.sessions.length];
          return { ...req, path: `${ACTIVATIONS}/${s.sessionId}/check-in`, headers: { authorization: `Bearer ${s.token}` } };
        },
      };
      const checkIn = await load(server.baseUrl, checkInRequest);
      options.log(`${processes} process(es): activation ${activation.requestsPerSecond}/s, check-in ${checkIn.requestsPerSecond}/s`);
      out.push({ processes, activation, checkIn });
    } finally {
      await server.stop();
    }
  }
  return out;
}
