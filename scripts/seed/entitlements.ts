import type { DomainContext } from "../../server/domain/context.ts";
import { ZOfferWriteRequest } from "../../server/domain/entitlements/offers/offer.schemas.ts";
import { ZEntitlementCreateRequest } from "../../server/domain/entitlements/entitlement/entitlement.schemas.ts";
import { ZAddOnGrantCreateRequest } from "../../server/domain/entitlements/add-on-grants/add-on-grant.schemas.ts";
import {
  ZCustomerOrganizationCreateRequest,
  ZCustomerUserCreateRequest,
} from "../../server/domain/customers/customer.schemas.ts";
import { createOffer } from "../../server/domain/entitlements/offers/write-offer.ts";
import { publishOffer } from "../../server/domain/entitlements/offers/offer-lifecycle.ts";
import { createEntitlement } from "../../server/domain/entitlements/entitlement/create-entitlement.ts";
import { grantAddOn } from "../../server/domain/entitlements/add-on-grants/add-on-grants.ts";
import { createCustomerOrganization } from "../../server/domain/customers/customer-organizations.ts";
import { createCustomerUser } from "../../server/domain/customers/customer-users.ts";

const OFFER_NAME = "Studio Team (annual)";

/**
 * Demo offers and entitlements (after the pricing seed): a Published offer of the demo suite's
 * Team plan, a customer organization with the portal's demo user as a member, an entitlement for
 * that user with the Power pack add-on granted, and a 14-day trial. Skipped when already seeded or
 * when there is no published demo plan set. Returns the first entitlement's id.
 */
export async function seedEntitlements(
  ctx: DomainContext,
  suiteId: string | null,
  consumerEmail: string,
): Promise<{ entitlementId: string } | null> {
  const existing = await ctx.db.offer.findFirst({ where: { name: OFFER_NAME } });
  if (existing) {
    const first = await ctx.db.entitlement.findFirst({
      where: { sourceOfferId: existing.id },
      orderBy: { createdAt: "asc" },
      select: { id: true },
    });
    return first ? { entitlementId: first.id } : null;
  }
  if (!suiteId) return null;
  const [planSet, members, addOn, portalUser] = await Promise.all([
    ctx.db.usagePlanSet.findFirst({
      where: { suiteId, status: "Published" },
      orderBy: { revision: "desc" },
      select: { id: true },
    }),
    ctx.db.suiteMember.findMany({
      where: { suiteId },
      orderBy: { sortOrder: "asc" },
      select: { productId: true },
    }),
    ctx.db.addOn.findFirst({ where: { suiteId, code: "POWER-PACK" }, select: { id: true } }),
    ctx.db.user.findFirst({
      where: { emailKey: consumerEmail.toLowerCase(), kind: "consumer" },
      select: { id: true },
    }),
  ]);
  if (!planSet) return null;
  const offer = await createOffer(
    ctx,
    ZOfferWriteRequest.parse({
      name: OFFER_NAME,
      description: "Studio Suite, Team plan, 10 floating seats, billed yearly by invoice.",
      productIds: members.map((m) => m.productId),
      planSetId: planSet.id,
      planName: "Team",
      validityDays: 365,
      consumersMayGrantCredits: true,
      claimBasedActivation: {
        numberOfSeats: 10,
        isFloatingLicense: true,
        leaseTime: "PT1H",
        gracePeriod: "P1D",
      },
      billingTemplate: {
        provider: "manual",
        mode: "OperatorManaged",
        modeReason: "Annual invoice",
        method: "Invoice",
        interval: "Year",
        currency: "EUR",
        countryCode: "DE",
      },
    }),
  );
  await publishOffer(ctx, offer.id);
  const organization = await createCustomerOrganization(
    ctx,
    ZCustomerOrganizationCreateRequest.parse({
      name: "Acme Corp",
      emailDomain: "demo.example.com",
      country: "DE",
      externalReference: "crm-acme",
    }),
  );
  const customer = await createCustomerUser(
    ctx,
    ZCustomerUserCreateRequest.parse({
      email: consumerEmail,
      firstName: "Casey",
      lastName: "Customer",
      organizationIds: [organization.id],
      userId: portalUser?.id ?? null,
      externalReference: "crm-casey",
    }),
  );
  const entitlement = await createEntitlement(
    ctx,
    ZEntitlementCreateRequest.parse({ offerId: offer.id, customerId: customer.id, reference: "PO-2027-001" }),
  );
  if (addOn)
    await grantAddOn(
      ctx,
      entitlement.id,
      ZAddOnGrantCreateRequest.parse({ addOnId: addOn.id, reference: "Upsell Q1" }),
    );
  await createEntitlement(
    ctx,
    ZEntitlementCreateRequest.parse({
      offerId: offer.id,
      customerId: organization.id,
      name: "Acme trial",
      isEntitlementTrial: true,
      validityDays: 14,
    }),
  );
  return { entitlementId: entitlement.id };
}
