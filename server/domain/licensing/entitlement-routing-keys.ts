import type { Entitlement } from "../../db/generated/client.ts";
import type { TenantTx } from "../../db/tenant-db.ts";
import type { z } from "zod";
import type { ZEntitlementRoutingKeys } from "../webhooks/event-data.schemas.ts";

type RoutingKeys = z.infer<typeof ZEntitlementRoutingKeys>;
/** The entitlement columns the keys come from; a caller that already holds the row passes it. */
type RoutingRow = Pick<Entitlement, "id" | "planName" | "planSetId" | "reference" | "externalReference" | "customerId" | "customerKind">;

const present = <T>(value: T | null | undefined): value is T => value !== null && value !== undefined && value !== "";

/**
 * SPEC.md "Event types and data": the routing keys of an entitlement event, each only when the
 * entitlement has one. `planCode` is the assigned plan's name (plans are identified by name
 * within their plan set).
 */
export async function entitlementRoutingKeys(tx: TenantTx, entitlementId: string, row?: RoutingRow): Promise<RoutingKeys> {
  const e =
    row ??
    (await tx.entitlement.findUniqueOrThrow({
      where: { id: entitlementId },
      select: { id: true, planName: true, planSetId: true, reference: true, externalReference: true, customerId: true, customerKind: true },
    }));
  const keys: RoutingKeys = { entitlementId: e.id };
  if (present(e.planName)) keys.planCode = e.planName;
  if (present(e.reference)) keys.reference = e.reference;
  if (present(e.externalReference)) keys.externalReference = e.externalReference;
  if (present(e.customerId)) {
    keys.customerId = e.customerId;
    const customer =
      e.customerKind === "Organization"
        ? await tx.customerOrganization.findFirst({ where: { id: e.customerId }, select: { externalReference: true } })
        : await tx.customerUser.findFirst({ where: { id: e.customerId }, select: { externalReference: true } });
    if (present(customer?.externalReference)) keys.customerExternalReference = customer.externalReference;
  }
  if (present(e.planSetId)) keys.planSetId = e.planSetId;
  const billing = await tx.entitlementBilling.findFirst({
    where: { entitlementId },
    select: { provider: true, providerSubscriptionReference: true, providerCustomerReference: true },
  });
  if (billing) {
    const b: NonNullable<RoutingKeys["billing"]> = {};
    if (present(billing.provider)) b.provider = billing.provider;
    if (present(billing.providerSubscriptionReference)) b.providerSubscriptionReference = billing.providerSubscriptionReference;
    if (present(billing.providerCustomerReference)) b.providerCustomerReference = billing.providerCustomerReference;
    if (Object.keys(b).length) keys.billing = b;
  }
  return keys;
}
