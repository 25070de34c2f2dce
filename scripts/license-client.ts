// Reference client: behaves like a shipped application against the runtime surface.
//   npx tsx scripts/license-client.ts <command> [--flags]
// Commands: activate, verify, renew, check-in, release, offline-request, offline-verify,
// usage record | upload | show, consume.
// Prints one JSON document on stdout; errors go to stderr with the exit codes in
// scripts/license-client/errors.ts. The logic lives in scripts/license-client/*.ts.
import path from "node:path";
import { parseArgs } from "node:util";
import {
  activate,
  offlineRequest,
  offlineVerify,
  sessionCall,
  verifyStored,
} from "./license-client/commands.ts";
import { ClientError, EXIT } from "./license-client/errors.ts";
import { parseComponents } from "./license-client/offline.ts";
import { DEFAULT_STATE_FILE } from "./license-client/state.ts";
import { consumeUsage, recordUsage, showUsage, uploadUsage } from "./license-client/usage.ts";

const USAGE = `usage: license-client <command> [--flags]
  activate --url URL --code CODE --fingerprint FP [--device-name NAME] [--state-file FILE]
  verify [--fingerprint FP] [--state-file FILE]
  renew | check-in | release [--state-file FILE]
  offline-request --code CODE --fingerprint FP [--components k=v,...] [--out FILE]
  offline-verify --response FILE (--jwks-url URL | --jwks-file FILE) [--request FILE]
  usage record --metric M [--amount N] [--event-name NAME] [--state-file FILE]
  usage upload [--batch-size N] [--retries N] [--state-file FILE]
  usage show --metric M [--state-file FILE]
  consume --metric M --amount N [--idempotency-key K] [--preview] [--state-file FILE]`;

const flags = {
  url: { type: "string" },
  code: { type: "string" },
  fingerprint: { type: "string" },
  "device-name": { type: "string" },
  "state-file": { type: "string" },
  components: { type: "string" },
  out: { type: "string" },
  response: { type: "string" },
  request: { type: "string" },
  "jwks-url": { type: "string" },
  "jwks-file": { type: "string" },
  metric: { type: "string" },
  amount: { type: "string" },
  "event-name": { type: "string" },
  "batch-size": { type: "string" },
  retries: { type: "string" },
  "idempotency-key": { type: "string" },
  preview: { type: "boolean" },
  help: { type: "boolean" },
} as const;

function required(values: Record<string, string | boolean | undefined>, ...names: string[]): string[] {
  const missing = names.filter((n) => typeof values[n] !== "string" || values[n] === "");
  if (missing.length)
    throw new ClientError(EXIT.usage, `Missing ${missing.map((n) => `--${n}`).join(", ")}.\n${USAGE}`);
  return names.map((n) => values[n] as string);
}

async function run(argv: string[]): Promise<unknown> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: flags, allowPositionals: true, strict: true });
  } catch (error) {
    throw new ClientError(EXIT.usage, `${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  const [subcommand, ...extra] = command === "usage" ? rest : [undefined, ...rest];
  if (values.help || !command) throw new ClientError(EXIT.usage, USAGE);
  if (extra.length) throw new ClientError(EXIT.usage, `Unexpected arguments: ${extra.join(" ")}\n${USAGE}`);
  const stateFile = path.resolve(values["state-file"] ?? DEFAULT_STATE_FILE);
  switch (command) {
    case "activate": {
      const [url, code, fingerprint] = required(values, "url", "code", "fingerprint");
      return activate({ url, code, fingerprint, deviceName: values["device-name"], stateFile });
    }
    case "verify":
      return verifyStored({ stateFile, fingerprint: values.fingerprint });
    case "renew":
    case "check-in":
    case "release":
      return sessionCall(command, { stateFile });
    case "offline-request": {
      const [code, fingerprint] = required(values, "code", "fingerprint");
      return offlineRequest({
        code,
        fingerprint,
        components: values.components ? parseComponents(values.components) : undefined,
        out: values.out,
      });
    }
    case "offline-verify": {
      const [response] = required(values, "response");
      return offlineVerify({
        response,
        jwksUrl: values["jwks-url"],
        jwksFile: values["jwks-file"],
        request: values.request,
      });
    }
    case "usage": {
      if (subcommand === "record") {
        const [metric] = required(values, "metric");
        return recordUsage({ stateFile, metric, amount: values.amount, eventName: values["event-name"] });
      }
      if (subcommand === "upload")
        return uploadUsage({
          stateFile,
          batchSize: values["batch-size"] ? Number(values["batch-size"]) : undefined,
          retries: values.retries ? Number(values.retries) : undefined,
        });
      if (subcommand === "show") {
        const [metric] = required(values, "metric");
        return showUsage({ stateFile, metric });
      }
      throw new ClientError(EXIT.usage, `usage needs record, upload or show.\n${USAGE}`);
    }
    case "consume": {
      const [metric, amount] = required(values, "metric", "amount");
      return consumeUsage({
        stateFile,
        metric,
        amount,
        idempotencyKey: values["idempotency-key"],
        preview: values.preview,
      });
    }
    default:
      throw new ClientError(EXIT.usage, `Unknown command ${JSON.stringify(command)}.\n${USAGE}`);
  }
}

run(process.argv.slice(2)).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    process.exitCode = EXIT.ok;
  },
  (error: unknown) => {
    if (error instanceof ClientError) {
      // A refused consumption decision is still the server's answer: print it.
      if (error.details.decision)
        process.stdout.write(`${JSON.stringify(error.details.decision, null, 2)}\n`);
      process.stderr.write(`license-client: ${error.message}\n`);
      process.exitCode = error.exitCode;
    } else {
      process.stderr.write(
        `license-client: unexpected failure: ${error instanceof Error ? error.stack : String(error)}\n`,
      );
      process.exitCode = EXIT.internal;
    }
  },
);
