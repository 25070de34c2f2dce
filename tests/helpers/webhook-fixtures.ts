import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { tenantDb } from "../../server/db/tenant-db.ts";
import { systemContext } from "../../server/domain/context.ts";
import { deleteSubscription } from "../../server/domain/webhooks/subscriptions/delete-subscription.ts";
import { adminAccess } from "../../server/domain/webhooks/subscriptions/subscription-access.ts";
import { emitEvent, type EmitEventInput } from "../../server/domain/webhooks/events/emit-event.ts";
import { findEventType } from "../../server/domain/webhooks/events/event-types.ts";
import { request, testDb, type TestTenant } from "./api.ts";
import { challengeAnswerer, type Handler, type Receiver } from "./webhooks.ts";

export const SUBS = "/api/v1/webhooks/subscriptions";
export const INT_SUBS = "/api/v1/webhooks/integrator/subscriptions";
export const CHALLENGE = "Webhooks.Registration.Challenge";

export const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

/**
 * An Active Http subscription on `receiver` (created with a known secret and verified through the
 * real challenge), after which the receiver answers with `then` (200 by default).
 */
export async function activeSubscription(
  receiver: Receiver,
  token: string,
  body: Record<string, unknown> = {},
  options: { base?: string; then?: Handler } = {},
) {
  const secret = newSecret();
  const base = options.base ?? SUBS;
  const created = await request("POST", base, {
    token,
    body: { displayName: "Receiver", eventTypePatterns: ["*"], url: receiver.url, secret, ...body },
  });
  expect(created.status, created.text).toBe(201);
  receiver.setHandler(challengeAnswerer(secret));
  const verified = await request("POST", `${base}/${created.body.id}/verify`, { token });
  expect(verified.body.state, verified.text).toBe("Active");
  receiver.setHandler(options.then ?? ((_req, res) => void res.writeHead(200).end("ok")));
  return { id: created.body.id as string, secret };
}

export async function captureSubscription(token: string, body: Record<string, unknown> = {}) {
  const created = await request("POST", SUBS, {
    token,
    body: { displayName: "Capture", targetKind: "Capture", eventTypePatterns: ["*"], ...body },
  });
  expect(created.status, created.text).toBe(201);
  return created.body.id as string;
}

/** Emits an event of `type` in a committed transaction, its data the registry sample merged with `data`. */
export async function emit(
  tenant: TestTenant,
  type: string,
  data: Record<string, unknown> = {},
  extra: Partial<EmitEventInput> = {},
) {
  const definition = findEventType(type)!;
  return tenantDb(testDb(), tenant.tenantId).$transaction((tx) =>
    emitEvent(tx, {
      tenantId: tenant.tenantId,
      type,
      entityKind: definition.entityKind,
      entityId: extra.entityId ?? (data.entitlementId as string | undefined) ?? definition.sample.entityId,
      subject: definition.sample.subject,
      data: { ...definition.sample.data, ...data },
      ...extra,
    }),
  );
}

/** Non-challenge requests the receiver got for a subscription. */
export const eventsFor = (receiver: Receiver, subscriptionId: string) =>
  receiver.forSubscription(subscriptionId).filter((r) => r.headers["webhook-event-type"] !== CHALLENGE);

/** Deletes every subscription of a tenant (with its deliveries): each test starts without the previous ones'. */
export async function deleteAllSubscriptions(tenantId: string) {
  const ctx = systemContext(testDb(), tenantId, "test");
  for (const { id } of await ctx.db.webhookSubscription.findMany({ select: { id: true } }))
    await deleteSubscription(ctx, adminAccess, id);
}
