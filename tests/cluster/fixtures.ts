// The cluster test's data, made through the service's domain functions and its REST API (through
// HAProxy): one tenant with a metered license (the load's activations, check-ins, renews,
// consumes and uploads), a license of SEATS seats (more activations are tried than it has), an
// admin client, and a webhook subscription on the receiver; and a second tenant whose
// usage.session limit is low, for the rate-limit burst.
import { randomBytes, randomUUID } from "node:crypto";
import type { Prisma } from "../../server/db/generated/client.ts";
import type { Db } from "../../server/db/client.ts";
import { tenantDb } from "../../server/db/tenant-db.ts";
import { systemContext } from "../../server/domain/context.ts";
import { createTenant } from "../../server/domain/cross-tenant.ts";
import { createClient } from "../../server/domain/identity/oauth-clients.ts";
import { defaultKeyIssuancePolicy } from "../../server/domain/entitlements/entitlement/key-issuance-policy.schemas.ts";
import { setTenantRateLimit } from "../../server/domain/rate-limits/rate-limit-overrides.ts";
import type { Client } from "./client.ts";
import type { Receiver } from "./receiver.ts";

export const SEATS = 20;
export const METRIC = "api-calls";
export const RATE_LIMIT = 30;
const FEATURE = "CLUSTER_API_CALLS";
const SCOPES = ["provision.activation-code.*", "provision.webhook.*"];

export type License = { entitlementId: string; code: string };
export type Seed = {
  tenantId: string;
  adminToken: string;
  /** A fresh admin token (same client): a slow run can outlast the first one's 15 minutes. */
  newAdminToken: () => Promise<string>;
  metered: License;
  seats: License;
  subscriptionId: string;
  rate: { tenantId: string; metered: License };
};

/** An admin client of the tenant and a way to get a token for it (tokens last 15 minutes). */
async function adminCredentials(db: Db, client: Client, tenantId: string) {
  const { client: oauth, clientSecret } = await createClient(systemContext(db, tenantId, "cluster"), {
    name: "cluster",
    kind: "admin",
    scopes: SCOPES,
  });
  const form = new URLSearchParams({
    grant_type: "client_credentials",
    client_id: oauth.clientId,
    client_secret: clientSecret,
    scope: SCOPES.join(" "),
  });
  return async (): Promise<string> => {
    const answer = await client.call("token", "POST", "/auth/connect/token", { form });
    if (answer.status !== 200) throw new Error(`token: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.access_token as string;
  };
}

/** A Published license, optionally metering METRIC per day (an allowance far above the load), and one activation code. */
async function license(
  db: Db,
  client: Client,
  token: string,
  tenantId: string,
  seats: number,
  metered: boolean,
): Promise<License> {
  const scoped = tenantDb(db, tenantId);
  const features = metered
    ? [
        {
          id: randomUUID(),
          featureCode: FEATURE,
          productId: randomUUID(),
          moduleName: null,
          name: "API calls",
          description: "",
          value: "1000000000",
          isEnabled: true,
          isAvailableDuringTrialPeriod: true,
          isAvailableDuringGracePeriod: true,
          isPaidFeature: false,
          canModifyValueOnEntitlement: false,
          includeInLicenseToken: false,
          meteredAssetId: null,
          featureExpiration: null,
          catalogLifecycleStatus: "Published",
        },
      ]
    : [];
  const entitlement = await scoped.entitlement.create({
    data: {
      tenantId,
      name: `Cluster ${metered ? "metered" : "seats"} ${seats}`,
      features: features as Prisma.InputJsonValue,
      activationPolicy: {},
      claimBasedActivation: {
        leaseTime: "PT2H",
        gracePeriod: "P1D",
        numberOfSeats: seats,
        isFloatingLicense: false,
      },
      keyIssuancePolicy: defaultKeyIssuancePolicy(),
      productIds: [],
    },
  });
  if (metered) {
    const asset = await scoped.monitoredAsset.create({
      data: {
        tenantId,
        ownerKind: "Entitlement",
        ownerId: entitlement.id,
        entitlementId: entitlement.id,
        ownerStatus: "Published",
        metricName: METRIC,
        name: "API calls",
      },
    });
    await scoped.meteredUsage.create({
      data: { tenantId, monitoredAssetId: asset.id, consumptionPeriod: "day", usageTiers: [] },
    });
  }
  const issued = await client.call(
    "seed",
    "POST",
    `/api/v1/provision/operational/entitlements/${entitlement.id}/activation-codes`,
    { token, body: {} },
  );
  if (issued.status !== 200)
    throw new Error(`activation code: ${issued.status} ${JSON.stringify(issued.body)}`);
  return { entitlementId: entitlement.id, code: issued.body.codes[0].code };
}

async function featureCatalog(db: Db, tenantId: string) {
  await tenantDb(db, tenantId).featureCatalogEntry.create({
    data: {
      tenantId,
      featureCode: FEATURE,
      activeCodeKey: FEATURE,
      name: "API calls",
      metricName: METRIC,
      featureType: "Metered",
      lifecycleStatus: "Published",
    },
  });
}

export async function seed(db: Db, client: Client, receiver: Receiver): Promise<Seed> {
  const tenant = await createTenant(db, { name: `Cluster ${randomBytes(3).toString("hex")}` });
  await featureCatalog(db, tenant.tenantId);
  const newAdminToken = await adminCredentials(db, client, tenant.tenantId);
  const token = await newAdminToken();
  const metered = await license(db, client, token, tenant.tenantId, 100_000, true);
  const seats = await license(db, client, token, tenant.tenantId, SEATS, false);

  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  receiver.setSecret(secret);
  const created = await client.call("seed", "POST", "/api/v1/webhooks/subscriptions", {
    token,
    body: { displayName: "Cluster receiver", eventTypePatterns: ["*"], url: receiver.url, secret },
  });
  if (created.status !== 201)
    throw new Error(`subscription: ${created.status} ${JSON.stringify(created.body)}`);
  const verified = await client.call(
    "seed",
    "POST",
    `/api/v1/webhooks/subscriptions/${created.body.id}/verify`,
    { token },
  );
  if (verified.body?.state !== "Active")
    throw new Error(`verify: ${verified.status} ${JSON.stringify(verified.body)}`);

  const rateTenant = await createTenant(db, { name: `Cluster rate ${randomBytes(3).toString("hex")}` });
  await featureCatalog(db, rateTenant.tenantId);
  const rateToken = await (await adminCredentials(db, client, rateTenant.tenantId))();
  const rateMetered = await license(db, client, rateToken, rateTenant.tenantId, 10, true);
  // An hour's window: a burst of a few seconds cannot straddle two windows unless it starts in
  // the window's last seconds (the burst waits out that case, tests/cluster/rate-burst.ts).
  await setTenantRateLimit(systemContext(db, rateTenant.tenantId, "cluster"), {
    name: "usage.session",
    limit: RATE_LIMIT,
    windowSeconds: 3600,
  });

  return {
    tenantId: tenant.tenantId,
    adminToken: token,
    newAdminToken,
    metered,
    seats,
    subscriptionId: created.body.id,
    rate: { tenantId: rateTenant.tenantId, metered: rateMetered },
  };
}
