// The mixed load through HAProxy: virtual clients each loop over activations (metered license and
// the SEATS-seat license), check-ins, renews, consumes and usage uploads on the sessions answered
// so far; one more loop makes an admin write (activation codes issued with an Idempotency-Key)
// every 500 ms. Every activation (its events fan out to the webhook receiver) carries an
// Idempotency-Key, every consume an idempotencyKey, every upload fixed transaction ids, so a
// retried attempt cannot count twice. What each call was answered is kept for the checks.
import { randomUUID } from "node:crypto";
import type { Call, Client } from "./client.ts";
import { METRIC, type Seed } from "./fixtures.ts";

const ACT = "/api/v1/provision/activations";
const USAGE = "/api/v1/provision/usage";
const RECORDS_PER_UPLOAD = 5;

export type Session = { sessionId: string; token: string; fingerprint: string };
export type Activation = { license: "metered" | "seats"; fingerprint: string; key: string; call: Call };
export type Consume = { sessionId: string; token: string; key: string; call: Call };
export type Upload = { transactionIds: number[]; call: Call };
export type AdminWrite = { key: string; call: Call };

const subOf = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")).sub as string;

export class MixedLoad {
  readonly activations: Activation[] = [];
  readonly consumes: Consume[] = [];
  readonly uploads: Upload[] = [];
  readonly adminWrites: AdminWrite[] = [];
  readonly sessions: Session[] = [];
  private running = false;
  private loops: Promise<void>[] = [];
  private nextTransactionId = Date.now() * 1000;

  constructor(
    private readonly client: Client,
    private readonly seed: Seed,
  ) {}

  activationRequest(license: "metered" | "seats", fingerprint: string) {
    return { body: { activationCode: this.seed[license].code, fingerprint } };
  }

  async activate(license: "metered" | "seats"): Promise<void> {
    const fingerprint = `cluster-${randomUUID()}`;
    const key = randomUUID();
    const call = await this.client.call(`activate.${license}`, "POST", `${ACT}/jwt`, {
      ...this.activationRequest(license, fingerprint),
      headers: { "idempotency-key": key },
    });
    this.activations.push({ license, fingerprint, key, call });
    if (call.status === 200 && license === "metered")
      this.sessions.push({ sessionId: subOf(call.body), token: call.body, fingerprint });
  }

  private pick(): Session {
    return this.sessions[Math.floor(Math.random() * this.sessions.length)];
  }

  async consume(session = this.pick(), key: string = randomUUID()): Promise<Call> {
    const call = await this.client.call(
      "consume",
      "POST",
      `${USAGE}/consume/${session.sessionId}/${METRIC}?amount=1&idempotencyKey=${key}`,
      { token: session.token },
    );
    this.consumes.push({ sessionId: session.sessionId, token: session.token, key, call });
    return call;
  }

  private async upload(session: Session): Promise<void> {
    const transactionIds = Array.from({ length: RECORDS_PER_UPLOAD }, () => this.nextTransactionId++);
    const body = transactionIds.map((transactionId) => ({
      transactionId,
      sessionId: session.sessionId,
      apiVersion: 1,
      creationDateTime: new Date().toISOString(),
      eventName: "ApiCall",
      eventData: JSON.stringify({ metricName: METRIC, amount: 1 }),
    }));
    const call = await this.client.call(
      "upload",
      "POST",
      `${USAGE}/sessions/${session.sessionId}/transactions`,
      { token: session.token, body },
    );
    this.uploads.push({ transactionIds, call });
  }

  async adminWrite(key: string = randomUUID()): Promise<Call> {
    const call = await this.issueCode(key);
    if (call.status !== 401) return call;
    this.seed.adminToken = await this.seed.newAdminToken();
    return this.issueCode(key);
  }

  private async issueCode(key: string): Promise<Call> {
    const call = await this.client.call(
      "admin.issue-code",
      "POST",
      `/api/v1/provision/operational/entitlements/${this.seed.seats.entitlementId}/activation-codes`,
      {
        token: this.seed.adminToken,
        body: {},
        headers: { "idempotency-key": key },
      },
    );
    this.adminWrites.push({ key, call });
    return call;
  }

  private async step(): Promise<void> {
    const r = Math.random();
    if (r < 0.14) return this.activate("metered");
    if (r < 0.17) return this.activate("seats");
    const s = this.pick();
    if (r < 0.42)
      return void (await this.client.call("check-in", "POST", `${ACT}/${s.sessionId}/check-in`, {
        token: s.token,
      }));
    if (r < 0.52) {
      const renewed = await this.client.call("renew", "POST", `${ACT}/${s.sessionId}/renew`, {
        token: s.token,
      });
      if (renewed.status === 200)
        s.token = typeof renewed.body === "string" ? renewed.body : (renewed.body?.token ?? s.token);
      return;
    }
    if (r < 0.82) return void (await this.consume(s));
    return this.upload(s);
  }

  /** Starts `clients` virtual clients (each pausing `thinkMs` between calls) and the admin loop. */
  async start(clients: number, thinkMs: number): Promise<void> {
    for (let i = 0; i < 8; i++) await this.activate("metered");
    this.running = true;
    const loop = async (body: () => Promise<void>, pause: number) => {
      while (this.running) {
        await body();
        await new Promise((r) => setTimeout(r, pause));
      }
    };
    for (let i = 0; i < clients; i++) this.loops.push(loop(() => this.step(), thinkMs));
    this.loops.push(loop(async () => void (await this.adminWrite()), 500));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}
