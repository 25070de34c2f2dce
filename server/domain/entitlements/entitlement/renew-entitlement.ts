import type { DomainContext } from "../../context.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { AppError } from "../../../core/errors.ts";
import { now } from "../../../clock.ts";
import { emitEvent } from "../../webhooks/events/emit-event.ts";
import { MANUAL_PROVIDER } from "../billing/billing-providers.ts";
import { anonymousTryPurgeDueAt } from "../anonymous-try/anonymous-try-terms.ts";
import { lockEditableEntitlement } from "./entitlement-lock.ts";
import { readEntitlement } from "./entitlement-response.ts";
import { entitlementRoutingKeys } from "./entitlement-routing-keys.ts";
import type { TEntitlementRenewRequest } from "./renewal.schemas.ts";
import { checkValidity } from "./validity.ts";

/**
 * POST /operational/entitlements/{id}/renew (docs/architecture.md section 8): extends a Published
 * entitlement's validity to `expirationDateTime`, records the renewal (the expiration it replaced,
 * so reports see a lapse the renewal ended), moves a manual billing record's currentPeriodEnd
 * along, and emits `Entitlement.Renewed` in the same transaction. Renewing to the current
 * expiration changes nothing and emits nothing, so a retried renewal is harmless even without an
 * Idempotency-Key; an earlier date is refused (a renewal never shortens).
 */
export async function renewEntitlement(ctx: DomainContext, id: string, input: TEntitlementRenewRequest) {
  return renewEntitlementTo(ctx, id, () => new Date(input.expirationDateTime));
}

/**
 * The renewal itself, with the new end computed from the current one while the row is locked: a
 * bulk renewal extends each entitlement from its own end, and a renewal landing in between cannot
 * make it extend from a stale one.
 */
export async function renewEntitlementTo(
  ctx: DomainContext,
  id: string,
  nextEnd: (currentEnd: Date) => Date,
) {
  return inTransaction(ctx.db, async (tx) => {
    const current = await lockEditableEntitlement(tx, ctx.tenantId, id);
    const at = now();
    if (current.status !== "Published")
      throw new AppError(
        "entitlement.not_renewable",
        `A ${current.status} entitlement is not in force; publish it first.`,
      );
    const previous = current.expirationDateTime;
    if (!previous)
      throw new AppError(
        "entitlement.not_renewable",
        "The entitlement never expires; there is nothing to renew.",
      );
    const next = nextEnd(previous);
    if (next.getTime() === previous.getTime()) return (await readEntitlement(tx, id))!;
    if (next < previous)
      throw new AppError(
        "entitlement.renewal_shortens",
        `expirationDateTime must be after the current expiration (${previous.toISOString()}).`,
      );
    if (next <= at)
      throw new AppError("entitlement.not_renewable", "expirationDateTime must lie in the future.");
    checkValidity(current.notValidBeforeDateTime, next);

    await tx.entitlement.update({
      where: { id },
      data: {
        expirationDateTime: next,
        // A renewed anonymous try keeps its data for the usual time after its new end.
        ...(current.isAnonymousTry && !current.convertedToEntitlementId
          ? { anonymousTryPurgeDueAt: anonymousTryPurgeDueAt(next) }
          : {}),
        revisionNumber: { increment: 1 },
      },
    });
    await tx.entitlementRenewal.create({
      data: {
        tenantId: ctx.tenantId,
        entitlementId: id,
        renewedAt: at,
        previousExpirationDateTime: previous,
        expirationDateTime: next,
        renewedBy: `${ctx.actor.kind}:${ctx.actor.id}`,
      },
    });
    // The manual provider has no connector reporting periods: the renewal is the period's news.
    await tx.entitlementBilling.updateMany({
      where: { entitlementId: id, provider: MANUAL_PROVIDER, mode: { not: "NotBillable" } },
      data: { currentPeriodEnd: next },
    });
    await emitEvent(tx, {
      tenantId: ctx.tenantId,
      type: "Entitlement.Renewed",
      entityKind: "entitlement",
      entityId: id,
      subject: `entitlements/${id}`,
      data: {
        ...(await entitlementRoutingKeys(tx, id)),
        previousExpirationDateTime: previous.toISOString(),
        expirationDateTime: next.toISOString(),
        renewedAtUtc: at.toISOString(),
      },
    });
    return (await readEntitlement(tx, id))!;
  });
}
