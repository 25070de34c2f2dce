import { describe, expect, it } from "vitest";
import { createTestTenant, request, tokenRequest } from "../../helpers/api.ts";
import { CUSTOMER_USERS, ok } from "../../helpers/entitlements.ts";
import { makeCustomerUser, signedInConsumer } from "../../helpers/licensing-fixtures.ts";
import { uiSignInAttempt } from "../../helpers/ui-session.ts";

/**
 * Issue 21 item 7: the password grant issued a token to a blocked customer user. A consumer login
 * whose customer records are all blocked now gets neither a token nor a portal session; a login
 * with one unblocked record still does.
 */

const PASSWORD = "correct horse battery staple";

// Many requests per test: a loaded machine outruns the default 30 s.
describe("blocked customer users get no tokens", { timeout: 180_000 }, () => {
  it("the password grant and the portal sign-in refuse a user whose customer record is blocked; unblocking restores both", async () => {
    const tenant = await createTestTenant("Blocked user token");
    const admin = await tenant.token(["provision.customer.*"]);
    const { user, customer } = await signedInConsumer(tenant);
    ok(
      await request("PATCH", `${CUSTOMER_USERS}/${customer.id}`, { token: admin, body: { isBlocked: true } }),
    );

    const refused = await tokenRequest({ grant_type: "password", username: user.email, password: PASSWORD });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body).toEqual({
      error: "invalid_grant",
      error_description: "This user is blocked by the vendor.",
    });
    const portal = await uiSignInAttempt("consumer", { email: user.email, password: PASSWORD });
    expect(portal.error).toBe("blocked");

    // A wrong password still reads as a wrong password (nothing said about the account).
    const wrong = await tokenRequest({ grant_type: "password", username: user.email, password: "not it" });
    expect(wrong.body.error_description).toBe("Invalid username or password.");

    ok(
      await request("PATCH", `${CUSTOMER_USERS}/${customer.id}`, {
        token: admin,
        body: { isBlocked: false },
      }),
    );
    const again = await tokenRequest({ grant_type: "password", username: user.email, password: PASSWORD });
    expect(again.status, again.text).toBe(200);
  });

  it("a login with another, unblocked customer record still gets a token", async () => {
    const tenant = await createTestTenant("Blocked user second record");
    const admin = await tenant.token(["provision.customer.*"]);
    const { user, customer } = await signedInConsumer(tenant);
    await makeCustomerUser(tenant, { userId: user.id, email: user.email });
    ok(
      await request("PATCH", `${CUSTOMER_USERS}/${customer.id}`, { token: admin, body: { isBlocked: true } }),
    );
    const res = await tokenRequest({ grant_type: "password", username: user.email, password: PASSWORD });
    expect(res.status, res.text).toBe(200);
  });
});
