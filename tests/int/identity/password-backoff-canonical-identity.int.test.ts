import { describe, expect, it } from "vitest";
import { createTestTenant, tokenRequest } from "../../helpers/api.ts";
import { signedInConsumer } from "../../helpers/licensing-fixtures.ts";
import { uiSignInAttempt } from "../../helpers/ui-session.ts";
import { systemContext } from "../../../server/domain/context.ts";
import { createClient } from "../../../server/domain/identity/oauth-clients.ts";
import { setTenantRateLimit } from "../../../server/domain/rate-limits/rate-limit-overrides.ts";
import { testDb } from "../../helpers/api.ts";

/**
 * Issue 21 item 1: the failed-password back-off of the token endpoint's password grant was keyed on
 * the raw `username`, while the check compares the trimmed, lower-cased email: after 10 failures
 * for `victim@x`, `VICTIM@X` or ` victim@x` with the right password answered 200. Every credential
 * limit is keyed on the identity the check uses; a consumer's password counts alike at the portal
 * and the token endpoint (one budget). The service-wide failed-password limit is 10 per 5 minutes
 * (the test server does not change it).
 */

const PASSWORD = "correct horse battery staple";
const fiveMinutes = Math.floor(Date.now() / 300_000) * 300_000;
const clock = { "x-test-clock": new Date(fiveMinutes + 5_000).toISOString() };
const passwordGrant = (username: string, password: string) =>
  tokenRequest({ grant_type: "password", username, password }, clock);

// Each test runs tens of argon2 checks; on a loaded machine that outruns the default 30 s.
const SLOW = { timeout: 180_000 };

describe("password back-off keyed on the canonical identity", () => {
  it(
    "after 10 wrong passwords for victim@x, VICTIM@X and ' victim@x ' with the right password are refused 429 (another spelling is no new budget)",
    SLOW,
    async () => {
      const tenant = await createTestTenant("Backoff spelling");
      const { user } = await signedInConsumer(tenant);
      for (let i = 0; i < 10; i++) {
        const wrong = await passwordGrant(user.email, `wrong-${i}`);
        expect(wrong.status, wrong.text).toBe(400);
        expect(wrong.body.error).toBe("invalid_grant");
      }
      for (const spelling of [user.email.toUpperCase(), ` ${user.email} `, `\t${user.email.toUpperCase()}`]) {
        const refused = await passwordGrant(spelling, PASSWORD);
        expect(refused.status, `${JSON.stringify(spelling)}: ${refused.text}`).toBe(429);
        expect(refused.body.codeName).toBe("request.rate_limited");
        expect(refused.body.error).toBe("rate_limited");
        expect(refused.headers.get("ratelimit")).toContain(`"signin.failed_password";r=0;t=295`);
      }
    },
  );

  it("wrong passwords in mixed spellings add up to one budget", SLOW, async () => {
    const tenant = await createTestTenant("Backoff mixed spellings");
    const { user } = await signedInConsumer(tenant);
    const spellings = [user.email, user.email.toUpperCase(), ` ${user.email}`, `${user.email}  `];
    for (let i = 0; i < 10; i++) {
      const wrong = await passwordGrant(spellings[i % spellings.length], `wrong-${i}`);
      expect(wrong.status, wrong.text).toBe(400);
    }
    expect((await passwordGrant(user.email, PASSWORD)).status).toBe(429);
  });

  it("a consumer's failed portal sign-ins and password grants share one budget", SLOW, async () => {
    const tenant = await createTestTenant("Backoff portal and token");
    const { user } = await signedInConsumer(tenant);
    for (let i = 0; i < 6; i++) {
      const wrong = await uiSignInAttempt(
        "consumer",
        { email: user.email.toUpperCase(), password: `wrong-${i}` },
        { headers: clock },
      );
      expect(wrong.error).toBe("CredentialsSignin");
    }
    for (let i = 0; i < 4; i++)
      expect((await passwordGrant(` ${user.email}`, `wrong-t${i}`)).status).toBe(400);
    // Ten failures in all: the right password is refused on both doors.
    expect((await passwordGrant(user.email, PASSWORD)).status).toBe(429);
    const portal = await uiSignInAttempt(
      "consumer",
      { email: user.email, password: PASSWORD },
      { headers: clock },
    );
    expect(portal.error).toBe("rate-limited:295");
  });

  it(
    "back-office sign-in: failures under other spellings of the staff email count together",
    SLOW,
    async () => {
      const tenant = await createTestTenant("Backoff staff spelling");
      const spellings = [tenant.adminEmail.toUpperCase(), ` ${tenant.adminEmail}`, tenant.adminEmail];
      for (let i = 0; i < 10; i++) {
        const wrong = await uiSignInAttempt(
          "staff",
          { email: spellings[i % 3], password: `wrong-${i}` },
          { headers: clock },
        );
        expect(wrong.error).toBe("CredentialsSignin");
      }
      const refused = await uiSignInAttempt(
        "staff",
        { email: ` ${tenant.adminEmail.toUpperCase()} `, password: tenant.adminPassword },
        { headers: clock },
      );
      expect(refused.error).toBe("rate-limited:295");
    },
  );

  it(
    "client secrets: the back-off is keyed on the client id the check looks up (exact), and the right secret waits after the limit",
    SLOW,
    async () => {
      const tenant = await createTestTenant("Backoff client id");
      await setTenantRateLimit(systemContext(testDb(), tenant.tenantId, "test"), {
        name: "token.failed_secret",
        limit: 3,
        windowSeconds: 300,
      });
      const { client, clientSecret } = await createClient(systemContext(testDb(), tenant.tenantId, "test"), {
        name: "backoff",
        kind: "admin",
        scopes: ["provision.tag.read"],
      });
      const grant = (clientId: string, secret: string) =>
        tokenRequest({ grant_type: "client_credentials", client_id: clientId, client_secret: secret }, clock);
      // Another spelling of the id names no client: it is refused and never reaches the client's secret.
      const upper = await grant(client.clientId.toUpperCase(), clientSecret);
      expect(upper.status).toBe(401);
      for (let i = 0; i < 3; i++) expect((await grant(client.clientId, `wrong-${i}`)).status).toBe(401);
      const refused = await grant(client.clientId, clientSecret);
      expect(refused.status, refused.text).toBe(429);
      expect(refused.headers.get("ratelimit")).toContain(`"token.failed_secret";r=0;t=295`);
    },
  );
});
