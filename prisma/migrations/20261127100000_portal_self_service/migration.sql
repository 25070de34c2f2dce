-- Issue 25, customer portal self-service.
-- Consumer credit grant limits, set on the offer and copied to its entitlements (null = the
-- default of docs/decisions.md "Consumer credit grant limits").
ALTER TABLE "Offer" ADD COLUMN "consumerGrantLimitPerGrant" DECIMAL(24,6),
  ADD COLUMN "consumerGrantLimitPerMonth" DECIMAL(24,6);
ALTER TABLE "Entitlement" ADD COLUMN "consumerGrantLimitPerGrant" DECIMAL(24,6),
  ADD COLUMN "consumerGrantLimitPerMonth" DECIMAL(24,6);

-- Who made a balance entry, as people read it (kept as it was when the entry was written).
ALTER TABLE "BalanceHistoryEntry" ADD COLUMN "actorLabel" TEXT;

-- The reviewer's note on a plan-change request, shown to the customer.
ALTER TABLE "PlanChangeRequest" ADD COLUMN "reviewNote" TEXT;

-- "Sign out of other sessions" and password changes end the user's other UI sessions.
ALTER TABLE "User" ADD COLUMN "sessionsValidFrom" TIMESTAMPTZ(3),
  ADD COLUMN "keptSessionId" TEXT;
