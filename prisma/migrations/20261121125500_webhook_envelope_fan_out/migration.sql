-- AlterTable
ALTER TABLE "WebhookEnvelope" ADD COLUMN     "fannedOutAt" TIMESTAMPTZ(3);

-- Envelopes that already exist were fanned out (or sent to their one subscription) when created.
UPDATE "WebhookEnvelope" SET "fannedOutAt" = "createdAt";

-- CreateIndex
CREATE INDEX "WebhookEnvelope_fannedOutAt_createdAt_idx" ON "WebhookEnvelope"("fannedOutAt", "createdAt");
