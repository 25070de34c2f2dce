import pino from "pino";

/** Keys whose values never reach a log line, at the top level and one object deep. */
const secretKeys = [
  "secret",
  "clientSecret",
  "client_secret",
  "password",
  "passwordHash",
  "token",
  "accessToken",
  "access_token",
  "licenseToken",
  "fingerprint",
  "activationCode",
];

export const redactPaths = [
  "authorization",
  "headers.authorization",
  "*.headers.authorization",
  "req.headers.authorization",
  "headers.cookie",
  "*.headers.cookie",
  "req.headers.cookie",
  ...secretKeys,
  ...secretKeys.map((key) => `*.${key}`),
];

const globalForLog = globalThis as unknown as { __licensingLogger?: pino.Logger };

/**
 * The process-wide structured logger (JSON lines on stdout). Credentials, license tokens and
 * device fingerprints are redacted wherever they appear in a logged object.
 *
 * Written asynchronously (docs/architecture.md section 11): lines gather in memory while a write is under
 * way and go out together, so a request never waits for stdout, and at most one buffer of lines
 * (flushed synchronously when the process exits) is ever pending. On globalThis because the web
 * entry's modules and the copies Next.js bundled are two module graphs in one process: one
 * destination keeps their lines whole.
 */
export const logger: pino.Logger = (globalForLog.__licensingLogger ??= pino(
  {
    level: process.env.LOG_LEVEL ?? "info",
    base: { pid: process.pid },
    redact: { paths: redactPaths, censor: "[redacted]" },
    timestamp: pino.stdTimeFunctions.isoTime,
  },
  pino.destination({ dest: 1, sync: false, minLength: 4096 }),
));

/** Writes out the lines still buffered (before a deliberate exit). */
export function flushLogs(): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}

export type Logger = typeof logger;
