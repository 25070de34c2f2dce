import { describe, expect, it } from "vitest";
import { createTestTenant, testDb, tokenRequest } from "../../helpers/api.ts";
import { signedInConsumer } from "../../helpers/licensing-fixtures.ts";
import { uiSignInAttempt } from "../../helpers/ui-session.ts";
import { systemContext } from "../../../server/domain/context.ts";
import { createClient } from "../../../server/domain/identity/oauth-clients.ts";
import { setTenantRateLimit } from "../../../server/domain/rate-limits/rate-limit-overrides.ts";

/**
 * Issue 21 item 2: the back-off was check-then-count (read before the argon2 check, counted after
 * it), so parallel guesses all passed: 40 parallel wrong passwords → 22 evaluated, 60 parallel
 * portal sign-ins → 60. Each attempt is now counted before its check, so a burst of any size
 * evaluates at most the limit (10 per 5 minutes for passwords). An evaluated wrong password answers
 * invalid_grant / CredentialsSignin; a refused one 429 / rate-limited, without being checked.
 */

const PASSWORD = "correct horse battery staple";
const fiveMinutes = Math.floor(Date.now() / 300_000) * 300_000;
const clock = { "x-test-clock": new Date(fiveMinutes + 5_000).toISOString() };

// Each test runs tens of argon2 checks; on a loaded machine that outruns the default 30 s.
const SLOW = { timeout: 180_000 };

describe("password back-off holds under parallel bursts", () => {
  it(
    "40 parallel wrong passwords at the token endpoint: exactly 10 are evaluated, 30 refused 429; then the right password waits",
    SLOW,
    async () => {
      const tenant = await createTestTenant("Burst token");
      const { user } = await signedInConsumer(tenant);
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          tokenRequest({ grant_type: "password", username: user.email, password: `wrong-${i}` }, clock),
        ),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 400).length).toBe(10);
      expect(statuses.filter((s) => s === 429).length).toBe(30);
      expect(answers.filter((a) => a.status === 400).every((a) => a.body.error === "invalid_grant")).toBe(
        true,
      );
      const right = await tokenRequest(
        { grant_type: "password", username: user.email, password: PASSWORD },
        clock,
      );
      expect(right.status, right.text).toBe(429);
    },
  );

  it("60 parallel wrong portal sign-ins: exactly 10 are evaluated, 50 refused", SLOW, async () => {
    const tenant = await createTestTenant("Burst portal");
    const { user } = await signedInConsumer(tenant);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        uiSignInAttempt("consumer", { email: user.email, password: `wrong-${i}` }, { headers: clock }),
      ),
    );
    const errors = answers.map((a) => a.error ?? "signed in");
    expect(errors.filter((e) => e === "CredentialsSignin").length).toBe(10);
    expect(errors.filter((e) => e.startsWith("rate-limited:")).length).toBe(50);
    const right = await uiSignInAttempt(
      "consumer",
      { email: user.email, password: PASSWORD },
      { headers: clock },
    );
    expect(right.error).toBe("rate-limited:295");
  });

  it("30 parallel back-office sign-ins with wrong passwords: exactly 10 are evaluated", SLOW, async () => {
    const tenant = await createTestTenant("Burst staff");
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        uiSignInAttempt("staff", { email: tenant.adminEmail, password: `wrong-${i}` }, { headers: clock }),
      ),
    );
    expect(answers.filter((a) => a.error === "CredentialsSignin").length).toBe(10);
    expect(answers.filter((a) => a.error?.startsWith("rate-limited:")).length).toBe(20);
  });

  it("40 parallel wrong client secrets with a limit of 5: exactly 5 are evaluated", SLOW, async () => {
    const tenant = await createTestTenant("Burst secrets");
    await setTenantRateLimit(systemContext(testDb(), tenant.tenantId, "test"), {
      name: "token.failed_secret",
      limit: 5,
      windowSeconds: 300,
    });
    const { client } = await createClient(systemContext(testDb(), tenant.tenantId, "test"), {
      name: "burst",
      kind: "admin",
      scopes: ["provision.tag.read"],
    });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        tokenRequest(
          { grant_type: "client_credentials", client_id: client.clientId, client_secret: `wrong-${i}` },
          clock,
        ),
      ),
    );
    expect(answers.filter((a) => a.status === 401).length).toBe(5);
    expect(answers.filter((a) => a.status === 429).length).toBe(35);
  });

  it(
    "successful sign-ins give their reservation back: 15 right passwords in a row all pass",
    SLOW,
    async () => {
      const tenant = await createTestTenant("Burst refunds");
      const { user } = await signedInConsumer(tenant);
      for (let i = 0; i < 15; i++) {
        const res = await tokenRequest(
          { grant_type: "password", username: user.email, password: PASSWORD },
          clock,
        );
        expect(res.status, res.text).toBe(200);
      }
    },
  );
});
