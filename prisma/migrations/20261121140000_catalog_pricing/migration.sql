-- CreateTable
CREATE TABLE "Suite" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "isImplicit" BOOLEAN NOT NULL DEFAULT false,
    "implicitProductId" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Suite_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SuiteMember" (
    "tenantId" UUID NOT NULL,
    "suiteId" UUID NOT NULL,
    "productId" UUID NOT NULL,
    "sortOrder" INTEGER NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SuiteMember_pkey" PRIMARY KEY ("tenantId","suiteId","productId")
);

-- CreateTable
CREATE TABLE "UsagePlanSet" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "suiteId" UUID NOT NULL,
    "revision" INTEGER NOT NULL,
    "sourcePlanSetId" UUID,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'Draft',
    "revisionDate" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "publishedAt" TIMESTAMPTZ(3),
    "archivedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "UsagePlanSet_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UsagePlan" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "planSetId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "sortOrder" INTEGER NOT NULL,
    "pricingMode" TEXT NOT NULL,
    "monthlyPrice" DECIMAL(24,6),
    "currency" TEXT,
    "relativeWeight" DOUBLE PRECISION,

    CONSTRAINT "UsagePlan_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UsagePlanLineItem" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "planSetId" UUID NOT NULL,
    "planId" UUID NOT NULL,
    "productId" UUID NOT NULL,
    "sortOrder" INTEGER NOT NULL,
    "included" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "UsagePlanLineItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UsagePlanFeatureValue" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "planSetId" UUID NOT NULL,
    "lineItemId" UUID NOT NULL,
    "sortOrder" INTEGER NOT NULL,
    "featureCode" TEXT NOT NULL,
    "metricName" TEXT,
    "enforcementType" TEXT NOT NULL DEFAULT 'SingleValue',
    "value" TEXT,
    "usageTiers" JSONB NOT NULL,

    CONSTRAINT "UsagePlanFeatureValue_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AddOn" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "suiteId" UUID NOT NULL,
    "code" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'Draft',
    "featureCatalogIds" UUID[],
    "archivedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "AddOn_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AddOnFeatureValue" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "addOnId" UUID NOT NULL,
    "sortOrder" INTEGER NOT NULL,
    "featureCode" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "value" TEXT,
    "usageTiers" JSONB NOT NULL,
    "planTargets" TEXT[],

    CONSTRAINT "AddOnFeatureValue_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AddOnGrant" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "addOnId" UUID NOT NULL,
    "entitlementId" UUID,
    "offerId" UUID,
    "startsAt" TIMESTAMPTZ(3) NOT NULL,
    "expiresAt" TIMESTAMPTZ(3),
    "isRevoked" BOOLEAN NOT NULL DEFAULT false,
    "revokedAt" TIMESTAMPTZ(3),
    "reference" TEXT,
    "campaignId" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "AddOnGrant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RatingCampaign" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "isEnabled" BOOLEAN NOT NULL DEFAULT false,
    "startsAt" TIMESTAMPTZ(3),
    "endsAt" TIMESTAMPTZ(3),
    "offerIds" UUID[],
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "revisionNumber" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "RatingCampaign_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "RatingCampaignTarget" (
    "id" UUID NOT NULL,
    "tenantId" UUID NOT NULL,
    "campaignId" UUID NOT NULL,
    "featureCatalogId" UUID NOT NULL,
    "question" TEXT,
    "priority" INTEGER,
    "position" INTEGER NOT NULL,

    CONSTRAINT "RatingCampaignTarget_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Suite_tenantId_isImplicit_name_idx" ON "Suite"("tenantId", "isImplicit", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Suite_tenantId_code_key" ON "Suite"("tenantId", "code");

-- CreateIndex
CREATE UNIQUE INDEX "Suite_tenantId_implicitProductId_key" ON "Suite"("tenantId", "implicitProductId");

-- CreateIndex
CREATE INDEX "SuiteMember_tenantId_productId_idx" ON "SuiteMember"("tenantId", "productId");

-- CreateIndex
CREATE INDEX "SuiteMember_suiteId_idx" ON "SuiteMember"("suiteId");

-- CreateIndex
CREATE INDEX "UsagePlanSet_tenantId_suiteId_status_idx" ON "UsagePlanSet"("tenantId", "suiteId", "status");

-- CreateIndex
CREATE INDEX "UsagePlanSet_tenantId_status_revisionDate_idx" ON "UsagePlanSet"("tenantId", "status", "revisionDate");

-- CreateIndex
CREATE INDEX "UsagePlanSet_suiteId_idx" ON "UsagePlanSet"("suiteId");

-- CreateIndex
CREATE UNIQUE INDEX "UsagePlanSet_tenantId_suiteId_revision_key" ON "UsagePlanSet"("tenantId", "suiteId", "revision");

-- CreateIndex
CREATE INDEX "UsagePlan_tenantId_planSetId_idx" ON "UsagePlan"("tenantId", "planSetId");

-- CreateIndex
CREATE INDEX "UsagePlan_planSetId_idx" ON "UsagePlan"("planSetId");

-- CreateIndex
CREATE INDEX "UsagePlanLineItem_tenantId_planSetId_idx" ON "UsagePlanLineItem"("tenantId", "planSetId");

-- CreateIndex
CREATE INDEX "UsagePlanLineItem_tenantId_productId_idx" ON "UsagePlanLineItem"("tenantId", "productId");

-- CreateIndex
CREATE INDEX "UsagePlanLineItem_planId_idx" ON "UsagePlanLineItem"("planId");

-- CreateIndex
CREATE INDEX "UsagePlanFeatureValue_tenantId_planSetId_idx" ON "UsagePlanFeatureValue"("tenantId", "planSetId");

-- CreateIndex
CREATE INDEX "UsagePlanFeatureValue_tenantId_featureCode_idx" ON "UsagePlanFeatureValue"("tenantId", "featureCode");

-- CreateIndex
CREATE INDEX "UsagePlanFeatureValue_lineItemId_idx" ON "UsagePlanFeatureValue"("lineItemId");

-- CreateIndex
CREATE INDEX "AddOn_tenantId_suiteId_idx" ON "AddOn"("tenantId", "suiteId");

-- CreateIndex
CREATE INDEX "AddOn_tenantId_status_name_idx" ON "AddOn"("tenantId", "status", "name");

-- CreateIndex
CREATE INDEX "AddOn_suiteId_idx" ON "AddOn"("suiteId");

-- CreateIndex
CREATE UNIQUE INDEX "AddOn_tenantId_code_key" ON "AddOn"("tenantId", "code");

-- CreateIndex
CREATE INDEX "AddOnFeatureValue_tenantId_addOnId_idx" ON "AddOnFeatureValue"("tenantId", "addOnId");

-- CreateIndex
CREATE INDEX "AddOnFeatureValue_tenantId_featureCode_idx" ON "AddOnFeatureValue"("tenantId", "featureCode");

-- CreateIndex
CREATE INDEX "AddOnFeatureValue_addOnId_idx" ON "AddOnFeatureValue"("addOnId");

-- CreateIndex
CREATE INDEX "AddOnGrant_tenantId_addOnId_idx" ON "AddOnGrant"("tenantId", "addOnId");

-- CreateIndex
CREATE INDEX "AddOnGrant_tenantId_entitlementId_idx" ON "AddOnGrant"("tenantId", "entitlementId");

-- CreateIndex
CREATE INDEX "AddOnGrant_tenantId_offerId_idx" ON "AddOnGrant"("tenantId", "offerId");

-- CreateIndex
CREATE INDEX "AddOnGrant_addOnId_idx" ON "AddOnGrant"("addOnId");

-- CreateIndex
CREATE INDEX "RatingCampaign_tenantId_isEnabled_startsAt_idx" ON "RatingCampaign"("tenantId", "isEnabled", "startsAt");

-- CreateIndex
CREATE INDEX "RatingCampaign_tenantId_name_idx" ON "RatingCampaign"("tenantId", "name");

-- CreateIndex
CREATE INDEX "RatingCampaignTarget_tenantId_featureCatalogId_idx" ON "RatingCampaignTarget"("tenantId", "featureCatalogId");

-- CreateIndex
CREATE INDEX "RatingCampaignTarget_campaignId_idx" ON "RatingCampaignTarget"("campaignId");

-- CreateIndex
CREATE UNIQUE INDEX "RatingCampaignTarget_tenantId_campaignId_featureCatalogId_key" ON "RatingCampaignTarget"("tenantId", "campaignId", "featureCatalogId");

-- AddForeignKey
ALTER TABLE "Suite" ADD CONSTRAINT "Suite_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SuiteMember" ADD CONSTRAINT "SuiteMember_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SuiteMember" ADD CONSTRAINT "SuiteMember_suiteId_fkey" FOREIGN KEY ("suiteId") REFERENCES "Suite"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UsagePlanSet" ADD CONSTRAINT "UsagePlanSet_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UsagePlanSet" ADD CONSTRAINT "UsagePlanSet_suiteId_fkey" FOREIGN KEY ("suiteId") REFERENCES "Suite"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UsagePlan" ADD CONSTRAINT "UsagePlan_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UsagePlan" ADD CONSTRAINT "UsagePlan_planSetId_fkey" FOREIGN KEY ("planSetId") REFERENCES "UsagePlanSet"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UsagePlanLineItem" ADD CONSTRAINT "UsagePlanLineItem_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UsagePlanLineItem" ADD CONSTRAINT "UsagePlanLineItem_planId_fkey" FOREIGN KEY ("planId") REFERENCES "UsagePlan"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UsagePlanFeatureValue" ADD CONSTRAINT "UsagePlanFeatureValue_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UsagePlanFeatureValue" ADD CONSTRAINT "UsagePlanFeatureValue_lineItemId_fkey" FOREIGN KEY ("lineItemId") REFERENCES "UsagePlanLineItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AddOn" ADD CONSTRAINT "AddOn_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AddOn" ADD CONSTRAINT "AddOn_suiteId_fkey" FOREIGN KEY ("suiteId") REFERENCES "Suite"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AddOnFeatureValue" ADD CONSTRAINT "AddOnFeatureValue_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AddOnFeatureValue" ADD CONSTRAINT "AddOnFeatureValue_addOnId_fkey" FOREIGN KEY ("addOnId") REFERENCES "AddOn"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AddOnGrant" ADD CONSTRAINT "AddOnGrant_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AddOnGrant" ADD CONSTRAINT "AddOnGrant_addOnId_fkey" FOREIGN KEY ("addOnId") REFERENCES "AddOn"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RatingCampaign" ADD CONSTRAINT "RatingCampaign_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RatingCampaignTarget" ADD CONSTRAINT "RatingCampaignTarget_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "RatingCampaignTarget" ADD CONSTRAINT "RatingCampaignTarget_campaignId_fkey" FOREIGN KEY ("campaignId") REFERENCES "RatingCampaign"("id") ON DELETE CASCADE ON UPDATE CASCADE;
