// Provisioning from a vendor backend: when an order is paid, make the license, give the customer a
// code, and keep the license in step with the subscription. docs/guides/provisioning-from-a-backend.md
// explains each step; tests run this file against a real server (tests/int/guides/guides.int.test.ts).

// #region setup
const PROVISION = "/api/v1/provision";

// #endregion
// #region token
// 1. Client credentials: one token for the whole job, asked for with only the scopes it needs and
//    refreshed when it expires (expires_in, 15 minutes).
export async function accessToken(baseUrl: string, clientId: string, clientSecret: string) {
  const res = await fetch(`${baseUrl}/auth/connect/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: clientSecret,
      scope: "provision.entitlement-adm.* provision.activation-code.* provision.customer.*",
    }),
  });
  if (!res.ok) throw new Error(`token endpoint answered ${res.status}`);
  const body = (await res.json()) as { access_token: string; expires_in: number };
  return { token: body.access_token, expiresAt: Date.now() + body.expires_in * 1000 };
}

// #endregion
// #region api
async function api<T>(
  baseUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  key?: string,
) {
  const res = await fetch(`${baseUrl}${PROVISION}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      // The same key on a retry answers the first response: a timeout never makes two licenses.
      ...(key ? { "idempotency-key": key } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = res.status === 204 ? null : await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${answer?.codeName}: ${answer?.detail}`);
  return answer as T;
}

// #endregion
// #region order
export type PaidOrder = {
  orderId: string;
  offerId: string;
  email: string;
  firstName: string;
  lastName: string;
};

// 2. The order is paid: find or create the customer, make the entitlement from the offer (keyed by
//    the order, so a redelivered payment event makes nothing twice), and issue one activation code.
export async function provisionPaidOrder(baseUrl: string, token: string, order: PaidOrder) {
  const customer = await api<{ id: string }>(
    baseUrl,
    token,
    "POST",
    "/admin/customers/users",
    {
      email: order.email,
      firstName: order.firstName,
      lastName: order.lastName,
      externalReference: order.orderId,
    },
    `customer-${order.orderId}`,
  );
  const entitlement = await api<{ id: string; expirationDateTime: string | null }>(
    baseUrl,
    token,
    "POST",
    "/admin/entitlements",
    { offerId: order.offerId, customerId: customer.id, reference: order.orderId },
    `entitlement-${order.orderId}`,
  );
  const issued = await api<{ codes: { code: string }[] }>(
    baseUrl,
    token,
    "POST",
    `/operational/entitlements/${entitlement.id}/activation-codes`,
    { count: 1 },
    `codes-${order.orderId}`,
  );
  return { customerId: customer.id, entitlementId: entitlement.id, activationCode: issued.codes[0].code };
}

// #endregion
// #region lifecycle
// 3. The subscription renewed: move the end of validity. Running devices pick it up at their next
//    renew; nothing has to be re-activated.
export async function renewEntitlement(baseUrl: string, token: string, entitlementId: string, until: Date) {
  return api<{ expirationDateTime: string }>(
    baseUrl,
    token,
    "POST",
    `/operational/entitlements/${entitlementId}/renew`,
    { expirationDateTime: until.toISOString() },
    `renew-${entitlementId}-${until.toISOString()}`,
  );
}

// 4. Payment failed for good: stop new activations (devices already running keep their lease until
//    it ends); enable them again when the customer pays.
export async function suspendActivations(baseUrl: string, token: string, entitlementId: string) {
  return api(baseUrl, token, "POST", `/admin/entitlements/${entitlementId}/disable-activations`);
}

export async function resumeActivations(baseUrl: string, token: string, entitlementId: string) {
  return api(baseUrl, token, "POST", `/admin/entitlements/${entitlementId}/enable-activations`);
}
// #endregion
