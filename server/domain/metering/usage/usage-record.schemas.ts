import { z } from "zod";

export const MAX_USAGE_BATCH = 1000;
const INT64_MAX = 9223372036854775807n;

/** docs/api.md int64: a JSON integer (up to 2^53 - 1) or its decimal string (up to 2^63 - 1). */
const ZTransactionId = z
  .union([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,19}$/)])
  .refine((v) => BigInt(v) <= INT64_MAX, "transactionId is an int64.")
  .transform((v) => BigInt(v));

/** docs/api.md "Usage transaction record". */
export const ZUsageTransactionRecord = z.object({
  transactionId: ZTransactionId.describe(
    "Monotonically increasing, assigned by the local store; unique per license (a retry under another session counts once).",
  ),
  sessionId: z.string().uuid().nullable().optional().describe("The session the record was captured in."),
  apiVersion: z.number().int().min(0).max(2_147_483_647).default(1),
  creationDateTime: z.iso.datetime({ offset: true, message: "An ISO 8601 date-time with a time zone." }),
  eventName: z.string().min(1).max(200).describe("Type name of the event object in eventData."),
  eventData: z
    .string()
    .max(16_384)
    .describe(
      'The event as JSON text. {"metricName": "...", "amount": n} names the metric (else eventName does) and the amount (default 1).',
    ),
});
export type TUsageTransactionRecord = z.output<typeof ZUsageTransactionRecord>;

/** At most MAX_USAGE_BATCH records: a larger batch is refused whole (400 usage.batch_too_large). */
const ZRecords = z
  .array(ZUsageTransactionRecord)
  .describe(`At most ${MAX_USAGE_BATCH} records per batch; a larger batch is refused whole.`);

/** A batch: the array of records, or an object carrying them as `records`. */
export const ZUsageBatch = z
  .union([ZRecords, z.object({ records: ZRecords })])
  .transform((v) => (Array.isArray(v) ? v : v.records));

export const ZUsageUploadResponse = z
  .object({
    entitlementResolved: z
      .boolean()
      .describe("False when the session no longer exists: nothing was recorded and nothing is acknowledged."),
    entitlementId: z.string().uuid().nullable(),
    acknowledgedTransactionId: z
      .union([z.number().int(), z.string()])
      .nullable()
      .describe(
        "The highest transactionId processed (a string beyond 2^53 - 1); the client may drop records up to it.",
      ),
    received: z.number().int(),
    counted: z.number().int(),
    duplicates: z.number().int().describe("Records already uploaded (under any session of the license)."),
    unmatched: z.number().int().describe("Records that match no tracked metric: kept, not counted."),
    tooOld: z.number().int().describe("Captured more than 90 days before upload: acknowledged, not counted."),
    beyondBackDatingTolerance: z.number().int(),
    creditsCharged: z.number(),
    unfundedCredits: z.number(),
  })
  .describe("Acknowledgement of a usage upload.");
export type TUsageUploadResponse = z.infer<typeof ZUsageUploadResponse>;

export const ZSessionUsageParams = z.object({ sessionId: z.string().uuid() });
export const ZEntitlementUsageParams = z.object({ entitlementId: z.string().uuid() });
