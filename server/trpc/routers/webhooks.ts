import { z } from "zod";
import { router, staffProcedure } from "../init.ts";
import { ZListQuery, ZPage } from "../../http/pagination.ts";
import {
  subscriptionStates, ZReplayRequest, ZReplayResponse, ZSecretRotationRequest, ZSubscriptionCreateRequest, ZSubscriptionIdParams,
  ZSubscriptionResponse, ZSubscriptionUpdateRequest, ZSubscriptionWithSecretResponse, ZTestFireRequest, ZTestFireResponse,
} from "../../domain/webhooks/subscription.schemas.ts";
import { ZCapturedEvent, ZDeliveryDetail, ZDeliverySummary } from "../../domain/webhooks/delivery.schemas.ts";
import { ZEnvelope } from "../../domain/webhooks/envelope.ts";
import { adminAccess } from "../../domain/webhooks/subscription-access.ts";
import { listEventSchemas } from "../../domain/webhooks/list-event-schemas.ts";
import { allowedCallbackScopes } from "../../domain/webhooks/callback-scopes.ts";
import { listSubscriptions } from "../../domain/webhooks/list-subscriptions.ts";
import { getSubscription } from "../../domain/webhooks/get-subscription.ts";
import { createSubscription } from "../../domain/webhooks/create-subscription.ts";
import { updateSubscription } from "../../domain/webhooks/update-subscription.ts";
import { deleteSubscription } from "../../domain/webhooks/delete-subscription.ts";
import { verifySubscription } from "../../domain/webhooks/verify-subscription.ts";
import { enableSubscription } from "../../domain/webhooks/enable-subscription.ts";
import { disableSubscription } from "../../domain/webhooks/disable-subscription.ts";
import { suspendSubscription } from "../../domain/webhooks/suspend-subscription.ts";
import { resumeSubscription } from "../../domain/webhooks/resume-subscription.ts";
import { rotateSubscriptionSecret } from "../../domain/webhooks/rotate-subscription-secret.ts";
import { previewTestFire, testFire } from "../../domain/webhooks/test-fire.ts";
import { replayEnvelopes } from "../../domain/webhooks/replay-envelopes.ts";
import { listDeliveries } from "../../domain/webhooks/list-deliveries.ts";
import { getDelivery } from "../../domain/webhooks/get-delivery.ts";
import { listDeadLetters } from "../../domain/webhooks/list-dead-letters.ts";
import { requeueDeadLetter } from "../../domain/webhooks/requeue-dead-letter.ts";
import { listCapturedEvents } from "../../domain/webhooks/list-captured-events.ts";

const ZEventTypeOption = z.object({ type: z.string(), entityKind: z.string(), subscribable: z.boolean(), fieldPaths: z.array(z.string()) });
const id = ZSubscriptionIdParams;

/** The back office's webhooks: the tenant-admin surface (DESIGN.md section 8) for staff users. */
export const webhooksRouter = router({
  eventTypes: staffProcedure.output(z.array(ZEventTypeOption)).query(() =>
    listEventSchemas({ pageNumber: 1, pageSize: 100 }).items.map(({ type, entityKind, subscribable, fieldPaths }) => ({ type, entityKind, subscribable, fieldPaths })),
  ),
  callbackScopes: staffProcedure.output(z.array(z.string())).query(() => [...allowedCallbackScopes]),

  list: staffProcedure
    .input(ZListQuery.extend({ state: z.enum(subscriptionStates).optional() }))
    .output(ZPage(ZSubscriptionResponse))
    .query(({ ctx, input }) => listSubscriptions(ctx.domain, adminAccess, input)),
  get: staffProcedure.input(id).output(ZSubscriptionResponse).query(({ ctx, input }) => getSubscription(ctx.domain, adminAccess, input.id)),
  create: staffProcedure.input(ZSubscriptionCreateRequest).output(ZSubscriptionWithSecretResponse).mutation(({ ctx, input }) => createSubscription(ctx.domain, adminAccess, input)),
  update: staffProcedure
    .input(id.extend({ patch: ZSubscriptionUpdateRequest }))
    .output(ZSubscriptionResponse)
    .mutation(({ ctx, input }) => updateSubscription(ctx.domain, adminAccess, input.id, input.patch)),
  delete: staffProcedure.input(id).mutation(({ ctx, input }) => deleteSubscription(ctx.domain, adminAccess, input.id)),

  verify: staffProcedure.input(id).output(ZSubscriptionResponse).mutation(({ ctx, input }) => verifySubscription(ctx.domain, adminAccess, input.id)),
  enable: staffProcedure.input(id).output(ZSubscriptionResponse).mutation(({ ctx, input }) => enableSubscription(ctx.domain, adminAccess, input.id)),
  disable: staffProcedure.input(id).output(ZSubscriptionResponse).mutation(({ ctx, input }) => disableSubscription(ctx.domain, adminAccess, input.id)),
  suspend: staffProcedure.input(id).output(ZSubscriptionResponse).mutation(({ ctx, input }) => suspendSubscription(ctx.domain, input.id)),
  resume: staffProcedure.input(id).output(ZSubscriptionResponse).mutation(({ ctx, input }) => resumeSubscription(ctx.domain, input.id)),
  rotateSecret: staffProcedure
    .input(id.extend(ZSecretRotationRequest.shape))
    .output(ZSubscriptionWithSecretResponse)
    .mutation(({ ctx, input }) => rotateSubscriptionSecret(ctx.domain, adminAccess, input.id, input)),
  testFire: staffProcedure
    .input(id.extend(ZTestFireRequest.shape))
    .output(ZTestFireResponse)
    .mutation(({ ctx, input }) => testFire(ctx.domain, adminAccess, input.id, input.eventType)),
  previewTestFire: staffProcedure
    .input(id.extend({ eventType: z.string().max(200).optional() }))
    .output(ZEnvelope)
    .query(({ ctx, input }) => previewTestFire(ctx.domain, adminAccess, input.id, input.eventType)),
  replay: staffProcedure
    .input(id.extend(ZReplayRequest.shape))
    .output(ZReplayResponse)
    .mutation(({ ctx, input }) => replayEnvelopes(ctx.domain, adminAccess, input.id, input)),

  deliveries: staffProcedure.input(ZListQuery).output(ZPage(ZDeliverySummary)).query(({ ctx, input }) => listDeliveries(ctx.domain, adminAccess, input)),
  delivery: staffProcedure
    .input(z.object({ envelopeId: z.string().uuid(), subscriptionId: z.string().uuid().optional() }))
    .output(ZDeliveryDetail)
    .query(({ ctx, input }) => getDelivery(ctx.domain, input.envelopeId, input.subscriptionId)),
  deadLetters: staffProcedure.input(ZListQuery).output(ZPage(ZDeliverySummary)).query(({ ctx, input }) => listDeadLetters(ctx.domain, input)),
  requeue: staffProcedure
    .input(z.object({ deliveryId: z.string().uuid() }))
    .output(ZDeliverySummary)
    .mutation(({ ctx, input }) => requeueDeadLetter(ctx.domain, input.deliveryId)),
  captures: staffProcedure
    .input(id.extend({ pageNumber: z.number().int().min(1).default(1), pageSize: z.number().int().min(0).max(100).default(20), eventType: z.string().optional() }))
    .output(ZPage(ZCapturedEvent))
    .query(({ ctx, input }) => listCapturedEvents(ctx.domain, input.id, input)),
});
