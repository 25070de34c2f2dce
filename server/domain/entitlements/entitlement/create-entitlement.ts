import type { DomainContext } from "../../context.ts";
import { inTransaction, type TenantTx } from "../../../db/tenant-db.ts";
import type { Offer, Prisma } from "../../../db/generated/client.ts";
import { AppError, notFound, validationError } from "../../../core/errors.ts";
import { zodIssues } from "../../../core/zod-issues.ts";
import { now } from "../../../clock.ts";
import { resolveCustomer } from "../../customers/customer-lookup.ts";
import { ZEntitlementTemplate, type TEntitlementCreateRequest } from "./entitlement.schemas.ts";
import { templateFieldNames } from "../offers/offer-template.ts";
import { templateCopy } from "../offers/template-copy.ts";
import { readEntitlement } from "./entitlement-response.ts";
import { resolvePlan } from "../plans/plan-lookup.ts";
import type { TEntitlementFeature, TFeatureSetting } from "./policies.schemas.ts";
import {
  applyFeatureSettings,
  copyMonitoredAssets,
  linkMeteredAssets,
  snapshotFeatures,
} from "../offers/template-snapshot.ts";
import { checkValidity } from "./validity.ts";
import { billingRowData, defaultBilling } from "../billing/billing-store.ts";
import { ZBillingFields } from "../billing/billing.schemas.ts";
import { planChangeSources, recordPlanChange } from "../plans/plan-history.ts";
import { copyOfferGrants } from "../add-on-grants/add-on-grants.ts";
import { convertAnonymousTry } from "../anonymous-try/convert-anonymous-try.ts";

const json = (v: unknown) => v as Prisma.InputJsonValue;
const DAY_MS = 86_400_000;

/** An offer's template fields in request form, the base a from-offer request overrides (features are the offer's snapshot). */
const offerAsTemplate = (offer: Offer) => ({ ...templateCopy.requestValues(offer), features: [] });

async function loadPublishedOffer(tx: TenantTx, id: string): Promise<Offer> {
  const offer = await tx.offer.findUnique({ where: { id } });
  if (!offer) throw notFound(`Offer ${id}`);
  if (offer.status !== "Published")
    throw new AppError(
      "offer.not_published",
      `Offer ${id} is ${offer.status}; entitlements are made from Published offers only.`,
    );
  return offer;
}

/**
 * POST /admin/entitlements (docs/api.md "Entitlement and offer"): from a Published offer, as a
 * snapshot (later offer edits do not reach it; sourceOfferId and originOfferId name the offer),
 * or directly. Monitored assets are copied with their initialCreditAmount, the plan (if any) is
 * recorded as the first plan-assignment history entry, and the billing record is made from the
 * request, else the offer's billing template.
 */
export async function createEntitlement(ctx: DomainContext, input: TEntitlementCreateRequest) {
  return inTransaction(ctx.db, async (tx) => {
    const offer = input.offerId ? await loadPublishedOffer(tx, input.offerId) : null;
    const raw = input as Record<string, unknown>;
    const overrides = Object.fromEntries(
      templateFieldNames.filter((k) => raw[k] !== undefined).map((k) => [k, raw[k]]),
    );
    if (offer) overrides.productIds = offer.productIds;
    const parsed = ZEntitlementTemplate.safeParse({ ...(offer ? offerAsTemplate(offer) : {}), ...overrides });
    if (!parsed.success) {
      const issues = zodIssues(parsed.error, "body");
      throw validationError(
        `Invalid body: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
        issues,
      );
    }
    const t = parsed.data;
    const validityDays = input.validityDays ?? offer?.validityDays ?? null;
    const start = t.notValidBeforeDateTime ? new Date(t.notValidBeforeDateTime) : now();
    const expiration = t.expirationDateTime
      ? new Date(t.expirationDateTime)
      : validityDays
        ? new Date(start.getTime() + validityDays * DAY_MS)
        : null;
    checkValidity(t.notValidBeforeDateTime, expiration);
    const customer = input.customerId ? await resolveCustomer(tx, input.customerId) : null;
    const plan =
      t.planSetId && t.planName
        ? await resolvePlan(tx, t.planSetId, t.planName, { requirePublished: true })
        : null;
    const settings = (overrides.features as TFeatureSetting[] | undefined) ?? [];
    const features: TEntitlementFeature[] = offer
      ? await applyFeatureSettings(tx, structuredClone(offer.features as TEntitlementFeature[]), settings)
      : await snapshotFeatures(tx, t.productIds, settings);

    const entitlement = await tx.entitlement.create({
      data: {
        tenantId: ctx.tenantId,
        ...templateCopy.rowData(t),
        status: input.status,
        reference: input.reference,
        externalReference: input.externalReference,
        expirationDateTime: expiration,
        sourceOfferId: offer?.id ?? null,
        originOfferId: offer?.id ?? null,
        customerId: customer?.id ?? null,
        customerKind: customer?.kind ?? null,
        features: json(features),
        planSetId: plan?.planSetId ?? null,
        planName: plan?.planName ?? null,
      },
    });
    const copies = await copyMonitoredAssets(
      tx,
      ctx.tenantId,
      { kind: "Entitlement", id: entitlement.id, status: entitlement.status },
      offer ? { ownerId: offer.id } : { productIds: t.productIds },
    );
    await tx.entitlement.update({
      where: { id: entitlement.id },
      data: { features: json(await linkMeteredAssets(tx, features, copies)) },
    });
    if (offer) await copyOfferGrants(tx, ctx.tenantId, offer.id, entitlement.id);
    if (plan)
      await recordPlanChange(tx, ctx.tenantId, entitlement.id, {
        previous: null,
        next: plan,
        source: planChangeSources.issued,
      });
    const billing =
      input.billing ??
      (offer?.billingTemplate ? ZBillingFields.parse(offer.billingTemplate) : defaultBilling());
    await tx.entitlementBilling.create({
      data: { tenantId: ctx.tenantId, entitlementId: entitlement.id, ...billingRowData(billing) },
    });
    if (input.anonymousTryId)
      await convertAnonymousTry({ ...ctx, db: tx }, input.anonymousTryId, entitlement.id);
    return (await readEntitlement(tx, entitlement.id))!;
  });
}
