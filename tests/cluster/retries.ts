// A retried request answers the original (docs/api.md "Idempotency"): after the load, a sample of
// answered activations and admin writes is sent again with the same Idempotency-Key, and consumes
// with the same idempotencyKey; each must answer what the first one answered and make nothing new.
import type pg from "pg";
import type { Check } from "./checks.ts";
import type { MixedLoad } from "./load.ts";
import type { Seed } from "./fixtures.ts";
import type { Client } from "./client.ts";

const subOf = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")).sub as string;
const sample = <T>(items: T[], n: number) =>
  items.filter((_, i) => i % Math.max(1, Math.floor(items.length / n)) === 0).slice(0, n);

export async function idempotentRetries(
  client: Client,
  sql: pg.Client,
  load: MixedLoad,
  seed: Seed,
): Promise<Check> {
  let same = 0;
  let different = 0;
  for (const a of sample(
    load.activations.filter((x) => x.call.status === 200 && x.license === "metered"),
    10,
  )) {
    const again = await client.call("retry.activate", "POST", "/api/v1/provision/activations/jwt", {
      ...load.activationRequest("metered", a.fingerprint),
      headers: { "idempotency-key": a.key },
    });
    if (again.status === 200 && subOf(again.body) === subOf(a.call.body)) same++;
    else different++;
  }
  const codesBefore = Number(
    (await sql.query(`SELECT count(*) AS n FROM "ActivationCode" WHERE "tenantId" = $1`, [seed.tenantId]))
      .rows[0].n,
  );
  for (const w of sample(
    load.adminWrites.filter((x) => x.call.status === 200),
    10,
  )) {
    const again = await load.adminWrite(w.key);
    if (again.status === 200 && again.body?.codes?.[0]?.id === w.call.body.codes[0].id) same++;
    else different++;
  }
  const codesAfter = Number(
    (await sql.query(`SELECT count(*) AS n FROM "ActivationCode" WHERE "tenantId" = $1`, [seed.tenantId]))
      .rows[0].n,
  );
  let replays = 0;
  for (const c of sample(
    load.consumes.filter((x) => x.call.status === 200 && x.call.body?.allowed),
    10,
  )) {
    const again = await load.consume({ sessionId: c.sessionId, token: c.token, fingerprint: "" }, c.key);
    if (again.status === 200 && again.body?.idempotentReplay === true && again.body?.allowed === true)
      replays++;
    else different++;
  }
  const answeredWrites = new Set(load.adminWrites.filter((w) => w.call.status === 200).map((w) => w.key))
    .size;
  return {
    name: "a retried Idempotency-Key / idempotencyKey answers the original and makes nothing new",
    ok: different === 0 && codesAfter === codesBefore && codesAfter === answeredWrites + 2,
    figures: {
      sameAnswer: same + replays,
      consumeReplays: replays,
      differentAnswer: different,
      activationCodes: codesAfter,
      adminWritesAnswered: answeredWrites,
    },
  };
}
