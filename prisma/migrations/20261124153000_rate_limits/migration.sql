-- Rate-limit counters (docs/security.md "Rate limits"): fixed windows, one row per bucket and
-- window, bumped by one INSERT ... ON CONFLICT per request. UNLOGGED: counters are worth nothing
-- after a crash (PostgreSQL empties the table then, which only forgives the current windows), and
-- skipping the WAL keeps the statement cheap on the activation path.
CREATE UNLOGGED TABLE "RateLimitCounter" (
    "bucket" TEXT NOT NULL,
    "windowStart" TIMESTAMPTZ(3) NOT NULL,
    "hits" INTEGER NOT NULL,
    "limit" INTEGER NOT NULL,
    "windowSeconds" INTEGER NOT NULL,

    CONSTRAINT "RateLimitCounter_pkey" PRIMARY KEY ("bucket","windowStart")
);

-- CreateIndex
CREATE INDEX "RateLimitCounter_windowStart_idx" ON "RateLimitCounter"("windowStart");

-- A tenant's own value for one limit (defaults come from the configuration).
CREATE TABLE "RateLimitOverride" (
    "tenantId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "limit" INTEGER NOT NULL,
    "windowSeconds" INTEGER NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "RateLimitOverride_pkey" PRIMARY KEY ("tenantId","name")
);

-- AddForeignKey
ALTER TABLE "RateLimitOverride" ADD CONSTRAINT "RateLimitOverride_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
