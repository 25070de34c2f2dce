import { z } from "zod";
import { router, staffProcedure } from "../../init.ts";
import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import {
  subscriptionStates,
  ZReplayRequest,
  ZReplayResponse,
  ZSecretRotationRequest,
  ZSubscriptionCreateRequest,
  ZSubscriptionIdParams,
  ZSubscriptionResponse,
  ZSubscriptionUpdateRequest,
  ZSubscriptionWithSecretResponse,
  ZTestFireRequest,
  ZTestFireResponse,
} from "../../../domain/webhooks/subscriptions/subscription.schemas.ts";
import {
  ZCapturedEvent,
  ZDeliveryDetail,
  ZDeliverySummary,
} from "../../../domain/webhooks/delivery/delivery.schemas.ts";
import { ZEnvelope } from "../../../domain/webhooks/events/envelope.ts";
import { adminAccess } from "../../../domain/webhooks/subscriptions/subscription-access.ts";
import { listEventSchemas } from "../../../domain/webhooks/events/list-event-schemas.ts";
import { allowedCallbackScopes } from "../../../domain/webhooks/subscriptions/callback-scopes.ts";
import { listSubscriptions } from "../../../domain/webhooks/subscriptions/list-subscriptions.ts";
import { getSubscription } from "../../../domain/webhooks/subscriptions/get-subscription.ts";
import { createSubscription } from "../../../domain/webhooks/subscriptions/create-subscription.ts";
import { updateSubscription } from "../../../domain/webhooks/subscriptions/update-subscription.ts";
import { deleteSubscription } from "../../../domain/webhooks/subscriptions/delete-subscription.ts";
import { verifySubscription } from "../../../domain/webhooks/subscriptions/verify-subscription.ts";
import { enableSubscription } from "../../../domain/webhooks/subscriptions/enable-subscription.ts";
import { disableSubscription } from "../../../domain/webhooks/subscriptions/disable-subscription.ts";
import { suspendSubscription } from "../../../domain/webhooks/subscriptions/suspend-subscription.ts";
import { resumeSubscription } from "../../../domain/webhooks/subscriptions/resume-subscription.ts";
import { rotateSubscriptionSecret } from "../../../domain/webhooks/subscriptions/rotate-subscription-secret.ts";
import { previewTestFire, testFire } from "../../../domain/webhooks/subscriptions/test-fire.ts";
import { replayEnvelopes } from "../../../domain/webhooks/delivery/replay-envelopes.ts";
import { listDeliveries } from "../../../domain/webhooks/delivery/list-deliveries.ts";
import { getDelivery } from "../../../domain/webhooks/delivery/get-delivery.ts";
import { listDeadLetters } from "../../../domain/webhooks/delivery/list-dead-letters.ts";
import { requeueDeadLetter } from "../../../domain/webhooks/delivery/requeue-dead-letter.ts";
import { listCapturedEvents } from "../../../domain/webhooks/delivery/list-captured-events.ts";
import {
  setCallbackScopeAllowance,
  ZCallbackScopeAllowanceRequest,
  ZCallbackScopeAllowanceResponse,
  ZIntegratorClientParams,
} from "../../../domain/webhooks/subscriptions/callback-scope-allowance.ts";

const ZEventTypeOption = z.object({
  type: z.string(),
  entityKind: z.string(),
  subscribable: z.boolean(),
  fieldPaths: z.array(z.string()),
});
const id = ZSubscriptionIdParams;

/** The back office's webhooks: the tenant-admin surface (docs/architecture.md section 8) for staff users. */
export const webhooksRouter = router({
  eventTypes: staffProcedure("webhooks")
    .output(z.array(ZEventTypeOption))
    .query(() =>
      listEventSchemas({ pageNumber: 1, pageSize: 100 }).items.map(
        ({ type, entityKind, subscribable, fieldPaths }) => ({ type, entityKind, subscribable, fieldPaths }),
      ),
    ),
  callbackScopes: staffProcedure("webhooks")
    .output(z.array(z.string()))
    .query(() => [...allowedCallbackScopes]),

  list: staffProcedure("webhooks")
    .input(ZListQuery.extend({ state: z.enum(subscriptionStates).optional() }))
    .output(ZPage(ZSubscriptionResponse))
    .query(({ ctx, input }) => listSubscriptions(ctx.domain, adminAccess, input)),
  get: staffProcedure("webhooks")
    .input(id)
    .output(ZSubscriptionResponse)
    .query(({ ctx, input }) => getSubscription(ctx.domain, adminAccess, input.id)),
  create: staffProcedure("webhooks")
    .input(ZSubscriptionCreateRequest)
    .output(ZSubscriptionWithSecretResponse)
    .mutation(({ ctx, input }) => createSubscription(ctx.domain, adminAccess, input)),
  update: staffProcedure("webhooks")
    .input(id.extend({ patch: ZSubscriptionUpdateRequest }))
    .output(ZSubscriptionResponse)
    .mutation(({ ctx, input }) => updateSubscription(ctx.domain, adminAccess, input.id, input.patch)),
  delete: staffProcedure("webhooks")
    .input(id)
    .mutation(({ ctx, input }) => deleteSubscription(ctx.domain, adminAccess, input.id)),

  verify: staffProcedure("webhooks")
    .input(id)
    .output(ZSubscriptionResponse)
    .mutation(({ ctx, input }) => verifySubscription(ctx.domain, adminAccess, input.id)),
  enable: staffProcedure("webhooks")
    .input(id)
    .output(ZSubscriptionResponse)
    .mutation(({ ctx, input }) => enableSubscription(ctx.domain, adminAccess, input.id)),
  disable: staffProcedure("webhooks")
    .input(id)
    .output(ZSubscriptionResponse)
    .mutation(({ ctx, input }) => disableSubscription(ctx.domain, adminAccess, input.id)),
  suspend: staffProcedure("webhooks")
    .input(id)
    .output(ZSubscriptionResponse)
    .mutation(({ ctx, input }) => suspendSubscription(ctx.domain, input.id)),
  resume: staffProcedure("webhooks")
    .input(id)
    .output(ZSubscriptionResponse)
    .mutation(({ ctx, input }) => resumeSubscription(ctx.domain, input.id)),
  rotateSecret: staffProcedure("webhooks")
    .input(id.extend(ZSecretRotationRequest.shape))
    .output(ZSubscriptionWithSecretResponse)
    .mutation(({ ctx, input }) => rotateSubscriptionSecret(ctx.domain, adminAccess, input.id, input)),
  testFire: staffProcedure("webhooks")
    .input(id.extend(ZTestFireRequest.shape))
    .output(ZTestFireResponse)
    .mutation(({ ctx, input }) => testFire(ctx.domain, adminAccess, input.id, input.eventType)),
  previewTestFire: staffProcedure("webhooks")
    .input(id.extend({ eventType: z.string().max(200).optional() }))
    .output(ZEnvelope)
    .query(({ ctx, input }) => previewTestFire(ctx.domain, adminAccess, input.id, input.eventType)),
  replay: staffProcedure("webhooks")
    .input(id.extend(ZReplayRequest.shape))
    .output(ZReplayResponse)
    .mutation(({ ctx, input }) => replayEnvelopes(ctx.domain, adminAccess, input.id, input)),

  deliveries: staffProcedure("webhooks")
    .input(ZListQuery)
    .output(ZPage(ZDeliverySummary))
    .query(({ ctx, input }) => listDeliveries(ctx.domain, adminAccess, input)),
  delivery: staffProcedure("webhooks")
    .input(z.object({ envelopeId: z.string().uuid(), subscriptionId: z.string().uuid().optional() }))
    .output(ZDeliveryDetail)
    .query(({ ctx, input }) => getDelivery(ctx.domain, input.envelopeId, input.subscriptionId)),
  deadLetters: staffProcedure("webhooks")
    .input(ZListQuery)
    .output(ZPage(ZDeliverySummary))
    .query(({ ctx, input }) => listDeadLetters(ctx.domain, input)),
  requeue: staffProcedure("webhooks")
    .input(z.object({ deliveryId: z.string().uuid() }))
    .output(ZDeliverySummary)
    .mutation(({ ctx, input }) => requeueDeadLetter(ctx.domain, input.deliveryId)),
  captures: staffProcedure("webhooks")
    .input(
      id.extend({
        pageNumber: z.number().int().min(1).default(1),
        pageSize: z.number().int().min(0).max(100).default(20),
        eventType: z.string().optional(),
      }),
    )
    .output(ZPage(ZCapturedEvent))
    .query(({ ctx, input }) => listCapturedEvents(ctx.domain, input.id, input)),
  /** The API-client screen's control: what an integrator client's subscriptions may request. */
  setCallbackScopeAllowance: staffProcedure("webhooks")
    .input(ZIntegratorClientParams.extend(ZCallbackScopeAllowanceRequest.shape))
    .output(ZCallbackScopeAllowanceResponse)
    .mutation(({ ctx, input }) =>
      setCallbackScopeAllowance(ctx.domain, input.clientId, { callbackScopes: input.callbackScopes }),
    ),
});
