/**
 * What must never appear in a log line (docs/security.md "Suites"): tokens (JWTs, callback tokens),
 * secrets (client secrets `cs_…`, webhook secrets `whsec_…`), and anything a test marked as a canary
 * (fingerprints, wrong secrets, passwords and activation codes it sent, all containing CANARY, and
 * the SHA-256 of canary fingerprints, which license tokens carry as `dev_fp`).
 */
export const CANARY = "hardening-canary";

const patterns: [string, RegExp][] = [
  ["a JWT", /eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]*/],
  ["a client secret", /\bcs_[\w-]{40,}/],
  ["a webhook secret", /whsec_[A-Za-z0-9+/=]{20,}/],
  ["a canary value", new RegExp(CANARY)],
];

/** The offending lines (shortened), each with what it leaks. */
export function leaksIn(log: string, extra: string[] = []): string[] {
  const out: string[] = [];
  for (const line of log.split("\n")) {
    for (const [what, pattern] of patterns)
      if (pattern.test(line)) out.push(`${what}: ${line.slice(0, 300)}`);
    for (const value of extra)
      if (value && line.includes(value)) out.push(`${value.slice(0, 12)}…: ${line.slice(0, 300)}`);
  }
  return out;
}
