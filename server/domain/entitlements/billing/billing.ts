import type { DomainContext } from "../../context.ts";
import { inTransaction, type TenantTx } from "../../../db/tenant-db.ts";
import { isUniqueViolation } from "../../../db/errors.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { now } from "../../../clock.ts";
import type { TBillingFields, TBillingProviderEvent } from "./billing.schemas.ts";
import { billingRowData, defaultBilling, toBillingResponse } from "./billing-store.ts";
import { applyLapseRules, applyModeChange, subscriptionStatusFor } from "./billing-lapse.ts";
import { isBillingProvider, MANUAL_PROVIDER } from "./billing-providers.ts";
import { lockEditableEntitlement } from "../entitlement/entitlement-lock.ts";

async function lockBilling(tx: TenantTx, tenantId: string, entitlementId: string) {
  await lockEditableEntitlement(tx, tenantId, entitlementId, { allowArchived: true });
  const existing = await tx.entitlementBilling.findFirst({ where: { entitlementId } });
  return (
    existing ??
    tx.entitlementBilling.create({ data: { tenantId, entitlementId, ...billingRowData(defaultBilling()) } })
  );
}

async function syncSubscriptionStatus(
  tx: TenantTx,
  entitlementId: string,
  record: { state: string; lapsedAt: Date | null },
) {
  const status = subscriptionStatusFor(record);
  if (status)
    await tx.entitlement.update({ where: { id: entitlementId }, data: { subscriptionStatus: status } });
}

/** GET /admin/entitlements/{id}/billing (a record with the defaults is made for an entitlement that has none). */
export async function getBilling(ctx: DomainContext, entitlementId: string) {
  return inTransaction(ctx.db, async (tx) =>
    toBillingResponse(await lockBilling(tx, ctx.tenantId, entitlementId)),
  );
}

/**
 * PUT /admin/entitlements/{id}/billing: full replace of the operator-editable fields. The
 * provider must be built in or registered. `amount` is informational only. A mode change moves a
 * recorded lapse (billing-lapse.ts applyModeChange).
 */
export async function replaceBilling(ctx: DomainContext, entitlementId: string, input: TBillingFields) {
  if (!isBillingProvider(input.provider))
    throw new AppError("billing.unknown_provider", `No billing provider is called "${input.provider}".`);
  try {
    return await inTransaction(ctx.db, async (tx) => {
      const before = await lockBilling(tx, ctx.tenantId, entitlementId);
      const lapse = applyModeChange(before, before.mode, input.mode, now());
      const after = await tx.entitlementBilling.update({
        where: { id: before.id },
        data: { ...billingRowData(input), ...lapse },
      });
      if (lapse.lapsedAt?.getTime() !== before.lapsedAt?.getTime())
        await syncSubscriptionStatus(tx, entitlementId, after);
      return toBillingResponse(after);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw referenceTaken();
    throw error;
  }
}

const referenceTaken = () =>
  new AppError(
    "billing.subscription_reference_taken",
    "Another entitlement's billing record already has this provider subscription reference.",
  );

/**
 * What a billing connector calls when its provider reports on a subscription: writes the
 * connector-owned fields (state, stateObservedAt, currentPeriodEnd, references) and applies the
 * lapse rules, keeping the entitlement's subscriptionStatus in step. The record must name the
 * reporting provider. providerSubscriptionReference is unique per tenant and provider (409).
 */
export async function applyBillingProviderEvent(
  ctx: DomainContext,
  entitlementId: string,
  provider: string,
  event: TBillingProviderEvent,
) {
  try {
    return await inTransaction(ctx.db, async (tx) => {
      const before = await lockBilling(tx, ctx.tenantId, entitlementId);
      if (before.provider !== provider)
        throw new AppError(
          "billing.not_manual",
          `The billing record is managed by "${before.provider}", not "${provider}".`,
        );
      const observedAt = event.observedAt ? new Date(event.observedAt) : now();
      const currentPeriodEnd =
        event.currentPeriodEnd === undefined
          ? before.currentPeriodEnd
          : event.currentPeriodEnd
            ? new Date(event.currentPeriodEnd)
            : null;
      const lapse = applyLapseRules({ ...before, currentPeriodEnd }, event.state, observedAt);
      const after = await tx.entitlementBilling.update({
        where: { id: before.id },
        data: {
          state: event.state,
          stateObservedAt: observedAt,
          currentPeriodEnd,
          ...(event.providerCustomerReference !== undefined
            ? { providerCustomerReference: event.providerCustomerReference }
            : {}),
          ...(event.providerSubscriptionReference !== undefined
            ? { providerSubscriptionReference: event.providerSubscriptionReference }
            : {}),
          ...lapse,
        },
      });
      await syncSubscriptionStatus(tx, entitlementId, after);
      return toBillingResponse(after);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw referenceTaken();
    throw error;
  }
}

/** POST /admin/entitlements/{id}/billing/manual-events: the built-in `manual` provider (an operator reports the state by hand). */
export async function recordManualBillingEvent(
  ctx: DomainContext,
  entitlementId: string,
  event: TBillingProviderEvent,
) {
  const record = await ctx.db.entitlementBilling.findFirst({
    where: { entitlementId },
    select: { provider: true },
  });
  if (
    !record &&
    !(await ctx.db.entitlement.findUnique({ where: { id: entitlementId }, select: { id: true } }))
  )
    throw notFound("Entitlement");
  if (record && record.provider !== MANUAL_PROVIDER) {
    throw new AppError(
      "billing.not_manual",
      `The billing record is managed by "${record.provider}"; its connector reports the state.`,
    );
  }
  return applyBillingProviderEvent(ctx, entitlementId, MANUAL_PROVIDER, event);
}
