-- CreateTable
CREATE TABLE "WebhookSubscription" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "targetKind" TEXT NOT NULL,
    "url" TEXT,
    "displayName" TEXT NOT NULL,
    "eventTypePatterns" TEXT[],
    "filters" JSONB,
    "callbackScopes" TEXT[],
    "state" TEXT NOT NULL,
    "resumeState" TEXT,
    "createdVia" TEXT NOT NULL,
    "ownerClientId" UUID,
    "secretSealed" TEXT,
    "previousSecretSealed" TEXT,
    "previousSecretExpiresAt" TIMESTAMPTZ(3),
    "secretRotatedAt" TIMESTAMPTZ(3),
    "lastVerificationAt" TIMESTAMPTZ(3),
    "lastVerificationError" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "revisionNumber" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "WebhookSubscription_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookEnvelope" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "entityKind" TEXT NOT NULL,
    "entityId" TEXT NOT NULL,
    "eventVersion" INTEGER NOT NULL,
    "time" TIMESTAMPTZ(3) NOT NULL,
    "payload" TEXT NOT NULL,
    "changeKey" TEXT,
    "replayOfId" UUID,
    "targetSubscriptionId" UUID,
    "isTest" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookEnvelope_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "envelopeId" UUID NOT NULL,
    "subscriptionId" UUID NOT NULL,
    "eventType" TEXT NOT NULL,
    "entityId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attemptCount" INTEGER NOT NULL DEFAULT 0,
    "scheduleOffset" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMPTZ(3),
    "leaseExpiresAt" TIMESTAMPTZ(3),
    "lastAttemptAt" TIMESTAMPTZ(3),
    "lastResponseStatus" INTEGER,
    "lastError" TEXT,
    "completedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDeliveryAttempt" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "deliveryId" UUID NOT NULL,
    "attemptNumber" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL,
    "finishedAt" TIMESTAMPTZ(3),
    "durationMs" INTEGER,
    "responseStatus" INTEGER,
    "responseExcerpt" TEXT,
    "error" TEXT,
    "requestHeaders" JSONB,

    CONSTRAINT "WebhookDeliveryAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookReplayLedgerEntry" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "principalKey" TEXT NOT NULL,
    "envelopeCount" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "WebhookReplayLedgerEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebhookSubscription_tenantId_state_idx" ON "WebhookSubscription"("tenantId", "state");

-- CreateIndex
CREATE INDEX "WebhookSubscription_tenantId_ownerClientId_idx" ON "WebhookSubscription"("tenantId", "ownerClientId");

-- CreateIndex
CREATE INDEX "WebhookSubscription_tenantId_createdAt_idx" ON "WebhookSubscription"("tenantId", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookSubscription_targetKind_idx" ON "WebhookSubscription"("targetKind");

-- CreateIndex
CREATE INDEX "WebhookEnvelope_tenantId_time_idx" ON "WebhookEnvelope"("tenantId", "time");

-- CreateIndex
CREATE INDEX "WebhookEnvelope_tenantId_entityId_idx" ON "WebhookEnvelope"("tenantId", "entityId");

-- CreateIndex
CREATE INDEX "WebhookEnvelope_targetSubscriptionId_idx" ON "WebhookEnvelope"("targetSubscriptionId");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookEnvelope_tenantId_changeKey_key" ON "WebhookEnvelope"("tenantId", "changeKey");

-- CreateIndex
CREATE INDEX "WebhookDelivery_tenantId_subscriptionId_createdAt_idx" ON "WebhookDelivery"("tenantId", "subscriptionId", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_tenantId_status_createdAt_idx" ON "WebhookDelivery"("tenantId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_envelopeId_idx" ON "WebhookDelivery"("envelopeId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_subscriptionId_idx" ON "WebhookDelivery"("subscriptionId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_leaseExpiresAt_idx" ON "WebhookDelivery"("status", "leaseExpiresAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_nextAttemptAt_idx" ON "WebhookDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_tenantId_envelopeId_subscriptionId_key" ON "WebhookDelivery"("tenantId", "envelopeId", "subscriptionId");

-- CreateIndex
CREATE INDEX "WebhookDeliveryAttempt_deliveryId_idx" ON "WebhookDeliveryAttempt"("deliveryId");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDeliveryAttempt_tenantId_deliveryId_attemptNumber_key" ON "WebhookDeliveryAttempt"("tenantId", "deliveryId", "attemptNumber");

-- CreateIndex
CREATE INDEX "WebhookReplayLedgerEntry_tenantId_principalKey_createdAt_idx" ON "WebhookReplayLedgerEntry"("tenantId", "principalKey", "createdAt");

-- CreateIndex
CREATE INDEX "WebhookReplayLedgerEntry_createdAt_idx" ON "WebhookReplayLedgerEntry"("createdAt");

-- AddForeignKey
ALTER TABLE "WebhookSubscription" ADD CONSTRAINT "WebhookSubscription_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookEnvelope" ADD CONSTRAINT "WebhookEnvelope_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookEnvelope" ADD CONSTRAINT "WebhookEnvelope_targetSubscriptionId_fkey" FOREIGN KEY ("targetSubscriptionId") REFERENCES "WebhookSubscription"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_envelopeId_fkey" FOREIGN KEY ("envelopeId") REFERENCES "WebhookEnvelope"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_subscriptionId_fkey" FOREIGN KEY ("subscriptionId") REFERENCES "WebhookSubscription"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDeliveryAttempt" ADD CONSTRAINT "WebhookDeliveryAttempt_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDeliveryAttempt" ADD CONSTRAINT "WebhookDeliveryAttempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "WebhookDelivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookReplayLedgerEntry" ADD CONSTRAINT "WebhookReplayLedgerEntry_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
