import pino from "pino";

/** Keys whose values never reach a log line, at the top level and one object deep. */
const secretKeys = [
  "secret", "clientSecret", "client_secret", "password", "passwordHash", "token", "accessToken", "access_token",
  "licenseToken", "fingerprint", "activationCode",
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

/**
 * The process-wide structured logger (JSON lines on stdout). Credentials, license tokens and
 * device fingerprints are redacted wherever they appear in a logged object.
 */
export const logger = pino({
  level: process.env.LOG_LEVEL ?? "info",
  base: { pid: process.pid },
  redact: { paths: redactPaths, censor: "[redacted]" },
  timestamp: pino.stdTimeFunctions.isoTime,
});

export type Logger = typeof logger;
