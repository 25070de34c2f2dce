import { Prisma, type EntitlementBilling } from "../../../db/generated/client.ts";
import {
  billingIntervals,
  billingMethods,
  billingModes,
  billingStates,
  readEnum,
  ZBillingFields,
  ZBillingResponse,
  type TBillingFields,
  type TBillingResponse,
} from "./billing.schemas.ts";
import { iso } from "../../../core/iso-date.ts";

export const defaultBilling = (): TBillingFields => ZBillingFields.parse({});

/** The operator-editable columns of a billing record (a full replace writes all of them). */
export function billingRowData(b: TBillingFields) {
  return {
    provider: b.provider,
    mode: b.mode,
    modeReason: b.modeReason,
    method: b.method,
    interval: b.interval,
    amount: b.amount === null ? null : new Prisma.Decimal(b.amount),
    currency: b.currency,
    billingReference: b.billingReference,
    notes: b.notes,
    contactName: b.contactName,
    contactEmail: b.contactEmail,
    contactPhone: b.contactPhone,
    addressLine1: b.addressLine1,
    addressLine2: b.addressLine2,
    postalCode: b.postalCode,
    city: b.city,
    stateOrProvince: b.stateOrProvince,
    countryCode: b.countryCode,
    details: b.details as Prisma.InputJsonValue,
  };
}

/** docs/api.md: an enum member we do not know (say, a state a newer connector wrote) reads as `Unknown`. */
export function toBillingResponse(row: EntitlementBilling): TBillingResponse {
  return ZBillingResponse.parse({
    id: row.id,
    entitlementId: row.entitlementId,
    provider: row.provider,
    mode: readEnum(billingModes, row.mode),
    modeReason: row.modeReason,
    method: readEnum(billingMethods, row.method),
    interval: readEnum(billingIntervals, row.interval),
    amount: row.amount === null ? null : Number(row.amount),
    currency: row.currency,
    billingReference: row.billingReference,
    notes: row.notes,
    contactName: row.contactName,
    contactEmail: row.contactEmail,
    contactPhone: row.contactPhone,
    addressLine1: row.addressLine1,
    addressLine2: row.addressLine2,
    postalCode: row.postalCode,
    city: row.city,
    stateOrProvince: row.stateOrProvince,
    countryCode: row.countryCode,
    details: (row.details ?? {}) as Record<string, string>,
    providerCustomerReference: row.providerCustomerReference,
    providerSubscriptionReference: row.providerSubscriptionReference,
    state: readEnum(billingStates, row.state),
    stateObservedAt: iso(row.stateObservedAt),
    currentPeriodEnd: iso(row.currentPeriodEnd),
    pastDueSince: iso(row.pastDueSince),
    lapsedPendingSince: iso(row.lapsedPendingSince),
    lapsedAt: iso(row.lapsedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  });
}
