import type { Task } from "graphile-worker";
import { z } from "zod";
import { db as processDb } from "../db/client.ts";
import { now } from "../clock.ts";
import { fanOutEnvelope } from "../domain/webhooks/fan-out.ts";
import { deliverOnce } from "../domain/webhooks/deliver.ts";
import { sweepDeliveries } from "../domain/webhooks/sweep-deliveries.ts";
import { enforceCaptureRetention } from "../domain/webhooks/capture-retention.ts";

const ZEnvelopeJob = z.object({ tenantId: z.string().uuid(), envelopeId: z.string().uuid() });
const ZDeliveryJob = z.object({ tenantId: z.string().uuid(), deliveryId: z.string().uuid() });

/** Enqueued by emitEvent in the transaction of the change (DESIGN.md section 7). */
export const webhook_fan_out: Task = async (payload) => {
  const { tenantId, envelopeId } = ZEnvelopeJob.parse(payload);
  await fanOutEnvelope(processDb(), tenantId, envelopeId);
};

/** One attempt of one delivery; the delivery row decides whether there is anything to do. */
export const webhook_deliver: Task = async (payload) => {
  const { tenantId, deliveryId } = ZDeliveryJob.parse(payload);
  await deliverOnce(processDb(), tenantId, deliveryId);
};

/** Cron, every minute: attempts lost with their worker, deliveries whose job went missing. */
export const webhook_sweep: Task = async (_payload, helpers) => {
  const result = await sweepDeliveries(processDb(), now());
  if (result.reclaimed || result.rewoken) helpers.logger.info(`webhook sweep: ${result.reclaimed} interrupted attempt(s) reclaimed, ${result.rewoken} delivery(ies) woken`);
};

/** Cron, every 10 minutes: 7 days or 1,000 captured deliveries per capture subscription. */
export const webhook_capture_retention: Task = async (_payload, helpers) => {
  const deleted = await enforceCaptureRetention(processDb(), now());
  if (deleted > 0) helpers.logger.info(`capture retention: ${deleted} captured delivery(ies) removed`);
};
