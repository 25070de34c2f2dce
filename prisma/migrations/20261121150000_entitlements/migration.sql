-- CreateTable
CREATE TABLE "Offer" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'Draft',
    "version" INTEGER NOT NULL DEFAULT 1,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "subscriptionStatus" TEXT NOT NULL DEFAULT 'Pending',
    "licenseTermsUrl" TEXT,
    "customerContactName" TEXT,
    "customerContactEmail" TEXT,
    "licenseKey" TEXT,
    "notValidBeforeDateTime" TIMESTAMPTZ(3),
    "expirationDateTime" TIMESTAMPTZ(3),
    "validityDays" INTEGER,
    "isEntitlementTrial" BOOLEAN NOT NULL DEFAULT false,
    "issueOnUserRegistration" BOOLEAN NOT NULL DEFAULT false,
    "allowAnonymousTry" BOOLEAN NOT NULL DEFAULT false,
    "consumersMayGrantCredits" BOOLEAN NOT NULL DEFAULT false,
    "isPlatformOffer" BOOLEAN NOT NULL DEFAULT false,
    "productIds" UUID[],
    "features" JSONB NOT NULL,
    "planSetId" UUID,
    "planName" TEXT,
    "billingTemplate" JSONB,
    "activationPolicy" JSONB NOT NULL,
    "keyIssuancePolicy" JSONB NOT NULL,
    "claimBasedActivation" JSONB NOT NULL,
    "publishedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "revisionNumber" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "Offer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Entitlement" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'Published',
    "version" INTEGER NOT NULL DEFAULT 1,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "subscriptionStatus" TEXT NOT NULL DEFAULT 'Pending',
    "licenseTermsUrl" TEXT,
    "customerContactName" TEXT,
    "customerContactEmail" TEXT,
    "licenseKey" TEXT,
    "reference" TEXT,
    "externalReference" TEXT,
    "notValidBeforeDateTime" TIMESTAMPTZ(3),
    "expirationDateTime" TIMESTAMPTZ(3),
    "isEntitlementTrial" BOOLEAN NOT NULL DEFAULT false,
    "issueOnUserRegistration" BOOLEAN NOT NULL DEFAULT false,
    "allowAnonymousTry" BOOLEAN NOT NULL DEFAULT false,
    "consumersMayGrantCredits" BOOLEAN NOT NULL DEFAULT false,
    "isAnonymousTry" BOOLEAN NOT NULL DEFAULT false,
    "isPlatformOffer" BOOLEAN NOT NULL DEFAULT false,
    "convertedToEntitlementId" UUID,
    "anonymousTryIssuedAt" TIMESTAMPTZ(3),
    "anonymousTryPurgeDueAt" TIMESTAMPTZ(3),
    "sourceOfferId" UUID,
    "originOfferId" UUID,
    "customerId" UUID,
    "customerKind" TEXT,
    "activationsEnabled" BOOLEAN NOT NULL DEFAULT true,
    "transferCount" INTEGER NOT NULL DEFAULT 0,
    "productIds" UUID[],
    "features" JSONB NOT NULL,
    "featureOverrides" JSONB,
    "planSetId" UUID,
    "planName" TEXT,
    "activationPolicy" JSONB NOT NULL,
    "keyIssuancePolicy" JSONB NOT NULL,
    "claimBasedActivation" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "revisionNumber" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "Entitlement_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EntitlementPlanHistory" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "entitlementId" UUID NOT NULL,
    "changedAt" TIMESTAMPTZ(3) NOT NULL,
    "previousPlanSetId" UUID,
    "previousPlanName" TEXT,
    "newPlanSetId" UUID NOT NULL,
    "newPlanName" TEXT NOT NULL,
    "source" TEXT NOT NULL,

    CONSTRAINT "EntitlementPlanHistory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PlanChangeRequest" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "entitlementId" UUID NOT NULL,
    "requestedByUserId" UUID NOT NULL,
    "requestedPlanSetId" UUID NOT NULL,
    "requestedPlanName" TEXT NOT NULL,
    "note" TEXT,
    "status" TEXT NOT NULL DEFAULT 'Pending',
    "reviewedAt" TIMESTAMPTZ(3),
    "reviewedBy" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PlanChangeRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EntitlementBilling" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "entitlementId" UUID NOT NULL,
    "provider" TEXT NOT NULL DEFAULT 'manual',
    "mode" TEXT NOT NULL DEFAULT 'NotBillable',
    "modeReason" TEXT,
    "method" TEXT NOT NULL DEFAULT 'Unspecified',
    "interval" TEXT NOT NULL DEFAULT 'Unspecified',
    "amount" DECIMAL(24,6),
    "currency" TEXT,
    "billingReference" TEXT,
    "notes" TEXT,
    "contactName" TEXT,
    "contactEmail" TEXT,
    "contactPhone" TEXT,
    "addressLine1" TEXT,
    "addressLine2" TEXT,
    "postalCode" TEXT,
    "city" TEXT,
    "stateOrProvince" TEXT,
    "countryCode" TEXT,
    "details" JSONB NOT NULL,
    "providerCustomerReference" TEXT,
    "providerSubscriptionReference" TEXT,
    "state" TEXT NOT NULL DEFAULT 'None',
    "stateObservedAt" TIMESTAMPTZ(3),
    "currentPeriodEnd" TIMESTAMPTZ(3),
    "pastDueSince" TIMESTAMPTZ(3),
    "lapsedPendingSince" TIMESTAMPTZ(3),
    "lapsedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "EntitlementBilling_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CustomerUser" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "userId" UUID,
    "externalReference" TEXT,
    "origin" TEXT NOT NULL DEFAULT 'admin',
    "userType" TEXT NOT NULL DEFAULT 'Consumer',
    "email" TEXT,
    "firstName" TEXT,
    "lastName" TEXT,
    "roles" TEXT[],
    "organizationIds" UUID[],
    "isApproved" BOOLEAN NOT NULL DEFAULT true,
    "isBlocked" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "CustomerUser_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CustomerOrganization" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "externalReference" TEXT,
    "origin" TEXT NOT NULL DEFAULT 'admin',
    "parentId" UUID,
    "organizationType" TEXT NOT NULL DEFAULT 'Customer',
    "name" TEXT NOT NULL,
    "emailDomain" TEXT,
    "country" TEXT,
    "invoiceDetails" JSONB,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "CustomerOrganization_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AttributionTouch" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "campaignId" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "entitlementId" UUID,
    "addOnGrantId" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AttributionTouch_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Offer_tenantId_status_name_idx" ON "Offer"("tenantId", "status", "name");

-- CreateIndex
CREATE INDEX "Offer_tenantId_createdAt_idx" ON "Offer"("tenantId", "createdAt");

-- CreateIndex
CREATE INDEX "Entitlement_tenantId_status_createdAt_idx" ON "Entitlement"("tenantId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "Entitlement_tenantId_customerId_idx" ON "Entitlement"("tenantId", "customerId");

-- CreateIndex
CREATE INDEX "Entitlement_tenantId_sourceOfferId_idx" ON "Entitlement"("tenantId", "sourceOfferId");

-- CreateIndex
CREATE INDEX "Entitlement_tenantId_expirationDateTime_idx" ON "Entitlement"("tenantId", "expirationDateTime");

-- CreateIndex
CREATE INDEX "Entitlement_tenantId_licenseKey_idx" ON "Entitlement"("tenantId", "licenseKey");

-- CreateIndex
CREATE INDEX "EntitlementPlanHistory_tenantId_entitlementId_changedAt_idx" ON "EntitlementPlanHistory"("tenantId", "entitlementId", "changedAt");

-- CreateIndex
CREATE INDEX "PlanChangeRequest_tenantId_status_createdAt_idx" ON "PlanChangeRequest"("tenantId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "PlanChangeRequest_tenantId_entitlementId_idx" ON "PlanChangeRequest"("tenantId", "entitlementId");

-- CreateIndex
CREATE UNIQUE INDEX "EntitlementBilling_tenantId_entitlementId_key" ON "EntitlementBilling"("tenantId", "entitlementId");

-- CreateIndex
CREATE UNIQUE INDEX "EntitlementBilling_tenantId_provider_providerSubscriptionRe_key" ON "EntitlementBilling"("tenantId", "provider", "providerSubscriptionReference");

-- CreateIndex
CREATE INDEX "CustomerUser_tenantId_email_idx" ON "CustomerUser"("tenantId", "email");

-- CreateIndex
CREATE INDEX "CustomerUser_tenantId_userId_idx" ON "CustomerUser"("tenantId", "userId");

-- CreateIndex
CREATE INDEX "CustomerUser_tenantId_externalReference_idx" ON "CustomerUser"("tenantId", "externalReference");

-- CreateIndex
CREATE INDEX "CustomerOrganization_tenantId_name_idx" ON "CustomerOrganization"("tenantId", "name");

-- CreateIndex
CREATE INDEX "CustomerOrganization_tenantId_externalReference_idx" ON "CustomerOrganization"("tenantId", "externalReference");

-- CreateIndex
CREATE INDEX "AttributionTouch_tenantId_campaignId_createdAt_idx" ON "AttributionTouch"("tenantId", "campaignId", "createdAt");

-- AddForeignKey
ALTER TABLE "Offer" ADD CONSTRAINT "Offer_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Entitlement" ADD CONSTRAINT "Entitlement_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EntitlementPlanHistory" ADD CONSTRAINT "EntitlementPlanHistory_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PlanChangeRequest" ADD CONSTRAINT "PlanChangeRequest_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EntitlementBilling" ADD CONSTRAINT "EntitlementBilling_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CustomerUser" ADD CONSTRAINT "CustomerUser_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CustomerOrganization" ADD CONSTRAINT "CustomerOrganization_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AttributionTouch" ADD CONSTRAINT "AttributionTouch_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
