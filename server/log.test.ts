import { Writable } from "node:stream";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { redactPaths } from "./log.ts";

describe("log redaction", () => {
  it("never writes tokens, secrets, passwords, activation codes or fingerprints", () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = pino({ redact: { paths: redactPaths, censor: "[redacted]" } }, sink);
    const secrets = [
      "Bearer eyJhbGciOi.secret.token",
      "cs_supersecret",
      "hunter2hunter2",
      "ABCD-EFGH-IJKL",
      "fp-1234567890",
      "eyJlicense.token.x",
    ];
    log.info({ req: { headers: { authorization: secrets[0] } } }, "request");
    log.info(
      {
        body: {
          clientSecret: secrets[1],
          password: secrets[2],
          activationCode: secrets[3],
          fingerprint: secrets[4],
        },
      },
      "body",
    );
    log.info({ licenseToken: secrets[5], token: secrets[5], clientSecret: secrets[1] }, "top level");
    const output = lines.join("");
    for (const secret of secrets) expect(output).not.toContain(secret);
    expect(output).toContain("[redacted]");
  });
});
