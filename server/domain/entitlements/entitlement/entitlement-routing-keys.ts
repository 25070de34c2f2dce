import type { Entitlement } from "../../../db/generated/client.ts";
import type { TenantTx } from "../../../db/tenant-db.ts";
import type { z } from "zod";
import type { ZEntitlementRoutingKeys } from "../../webhooks/events/event-data.schemas.ts";

type RoutingKeys = z.infer<typeof ZEntitlementRoutingKeys>;
/** The entitlement columns the keys come from; a caller that already holds the row passes it. */
type RoutingRow = Pick<
  Entitlement,
  "id" | "planName" | "planSetId" | "reference" | "externalReference" | "customerId" | "customerKind"
>;

const present = <T>(value: T | null | undefined): value is T =>
  value !== null && value !== undefined && value !== "";

type BillingRefs = {
  provider: string | null;
  providerSubscriptionReference: string | null;
  providerCustomerReference: string | null;
};

/**
 * docs/api.md "Event types and data": the routing keys of an entitlement event, each only when the
 * entitlement has one. `planCode` is the assigned plan's name (plans are identified by name
 * within their plan set). Pure: callers that read the customer's reference and the billing
 * record in their own query (activation) build the keys without further round trips.
 */
export function routingKeysFrom(
  e: RoutingRow,
  customerExternalReference: string | null | undefined,
  billing: BillingRefs | null | undefined,
): RoutingKeys {
  const keys: RoutingKeys = { entitlementId: e.id };
  if (present(e.planName)) keys.planCode = e.planName;
  if (present(e.reference)) keys.reference = e.reference;
  if (present(e.externalReference)) keys.externalReference = e.externalReference;
  if (present(e.customerId)) {
    keys.customerId = e.customerId;
    if (present(customerExternalReference)) keys.customerExternalReference = customerExternalReference;
  }
  if (present(e.planSetId)) keys.planSetId = e.planSetId;
  if (billing) {
    const b: NonNullable<RoutingKeys["billing"]> = {};
    if (present(billing.provider)) b.provider = billing.provider;
    if (present(billing.providerSubscriptionReference))
      b.providerSubscriptionReference = billing.providerSubscriptionReference;
    if (present(billing.providerCustomerReference))
      b.providerCustomerReference = billing.providerCustomerReference;
    if (Object.keys(b).length) keys.billing = b;
  }
  return keys;
}

/** The routing keys of an entitlement, read from the database (the entitlement row may be passed). */
export async function entitlementRoutingKeys(
  tx: TenantTx,
  entitlementId: string,
  row?: RoutingRow,
): Promise<RoutingKeys> {
  const e =
    row ??
    (await tx.entitlement.findUniqueOrThrow({
      where: { id: entitlementId },
      select: {
        id: true,
        planName: true,
        planSetId: true,
        reference: true,
        externalReference: true,
        customerId: true,
        customerKind: true,
      },
    }));
  const customer = !present(e.customerId)
    ? null
    : e.customerKind === "Organization"
      ? await tx.customerOrganization.findFirst({
          where: { id: e.customerId },
          select: { externalReference: true },
        })
      : await tx.customerUser.findFirst({ where: { id: e.customerId }, select: { externalReference: true } });
  const billing = await tx.entitlementBilling.findFirst({
    where: { entitlementId },
    select: { provider: true, providerSubscriptionReference: true, providerCustomerReference: true },
  });
  return routingKeysFrom(e, customer?.externalReference, billing);
}
