import type { DomainContext } from "../../context.ts";
import { inTransaction, type TenantTx } from "../../../db/tenant-db.ts";
import { Prisma, type Offer } from "../../../db/generated/client.ts";
import { AppError, notFound, validationError } from "../../../core/errors.ts";
import { readOffer } from "./offer-response.ts";
import type { TEntitlementFeature } from "../entitlement/policies.schemas.ts";
import { resolvePlan } from "../plans/plan-lookup.ts";
import { copyMonitoredAssets, linkMeteredAssets, snapshotFeatures } from "./template-snapshot.ts";
import { checkValidity } from "../entitlement/validity.ts";
import { readRecordTags, setRecordTags } from "../../catalog/tags/record-tags.ts";
import { zodIssues } from "../../../core/zod-issues.ts";
import { templateCopy } from "./template-copy.ts";
import { ZOfferWriteRequest, type TOfferPatchRequest, type TOfferWriteRequest } from "./offer.schemas.ts";

const json = (v: unknown) => v as Prisma.InputJsonValue;

async function offerData(tx: TenantTx, input: TOfferWriteRequest) {
  checkValidity(input.notValidBeforeDateTime, input.expirationDateTime);
  if (input.planSetId && input.planName)
    await resolvePlan(tx, input.planSetId, input.planName, { requirePublished: false });
  const features = await snapshotFeatures(tx, input.productIds, input.features);
  return {
    ...templateCopy.rowData(input),
    validityDays: input.validityDays,
    features,
    billingTemplate: input.billingTemplate ? json(input.billingTemplate) : undefined,
  };
}

/** POST /admin/offers: a Draft offer with its products' features and monitored assets copied. */
export async function createOffer(ctx: DomainContext, input: TOfferWriteRequest) {
  return inTransaction(ctx.db, async (tx) => {
    const { features, billingTemplate, ...data } = await offerData(tx, input);
    const offer = await tx.offer.create({
      data: {
        ...data,
        tenantId: ctx.tenantId,
        status: "Draft",
        features: json(features),
        billingTemplate: billingTemplate ?? undefined,
      },
    });
    const copies = await copyMonitoredAssets(
      tx,
      ctx.tenantId,
      { kind: "Offer", id: offer.id, status: offer.status },
      { productIds: input.productIds },
    );
    await tx.offer.update({
      where: { id: offer.id },
      data: { features: json(await linkMeteredAssets(tx, features, copies)) },
    });
    await setRecordTags(tx, ctx.tenantId, "Offer", offer.id, input.tags);
    return (await readOffer(tx, offer.id))!;
  });
}

/**
 * PUT /admin/offers/{id}: full replace. A Published offer may be edited (its version goes up);
 * entitlements already made from it are snapshots and do not change. Asset copies are re-made
 * when the products change. Archived offers are read-only.
 */
export async function replaceOffer(ctx: DomainContext, id: string, input: TOfferWriteRequest) {
  return inTransaction(ctx.db, async (tx) => {
    const [current] = await tx.$queryRaw<{ status: string; productIds: string[] }[]>`
      SELECT status, "productIds" FROM "Offer" WHERE "tenantId" = ${ctx.tenantId}::uuid AND id = ${id}::uuid FOR UPDATE`;
    if (!current) throw notFound("Offer");
    if (current.status === "Archived")
      throw new AppError("offer.archived", "An archived offer is read-only.");
    const { features, billingTemplate, ...data } = await offerData(tx, input);
    const productsChanged = [...current.productIds].sort().join() !== [...input.productIds].sort().join();
    let copies: Map<string, string>;
    if (productsChanged) {
      await tx.monitoredAsset.deleteMany({ where: { ownerId: id, ownerKind: "Offer" } });
      copies = await copyMonitoredAssets(
        tx,
        ctx.tenantId,
        { kind: "Offer", id, status: current.status },
        { productIds: input.productIds },
      );
    } else {
      const rows = await tx.monitoredAsset.findMany({
        where: { ownerId: id, ownerKind: "Offer" },
        select: { id: true, metricName: true },
      });
      copies = new Map(rows.map((r) => [r.metricName, r.id]));
    }
    await tx.offer.update({
      where: { id },
      data: {
        ...data,
        billingTemplate: billingTemplate ?? Prisma.DbNull,
        features: json(await linkMeteredAssets(tx, features, copies)),
        revisionNumber: { increment: 1 },
        ...(current.status === "Published" ? { version: { increment: 1 } } : {}),
      },
    });
    await setRecordTags(tx, ctx.tenantId, "Offer", id, input.tags);
    return (await readOffer(tx, id))!;
  });
}

/** An offer's current values as a write request body (features as settings by code; tags left alone). */
function offerWriteValues(offer: Offer) {
  return {
    ...templateCopy.requestValues(offer),
    validityDays: offer.validityDays,
    billingTemplate: offer.billingTemplate,
    features: (offer.features as TEntitlementFeature[]).map((f) => ({
      featureCode: f.featureCode,
      value: f.value,
      isEnabled: f.isEnabled,
      canModifyValueOnEntitlement: f.canModifyValueOnEntitlement,
      includeInLicenseToken: f.includeInLicenseToken,
      featureExpiration: f.featureExpiration,
    })),
    tags: null,
  };
}

function parseOfferWrite(body: Record<string, unknown>): TOfferWriteRequest {
  const parsed = ZOfferWriteRequest.safeParse(body);
  if (!parsed.success) {
    const issues = zodIssues(parsed.error, "body");
    throw validationError(`Invalid body: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`, issues);
  }
  return parsed.data;
}

/**
 * PATCH /admin/offers/{id}: the offer's current values (features as settings by code) with the
 * given fields on top, validated and written as a PUT.
 */
export async function updateOffer(ctx: DomainContext, id: string, patch: TOfferPatchRequest) {
  const offer = await ctx.db.offer.findUnique({ where: { id } });
  if (!offer) throw notFound("Offer");
  const given = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined && v !== null));
  return replaceOffer(ctx, id, parseOfferWrite({ ...offerWriteValues(offer), ...given }));
}

/**
 * Clone (back office): a new Draft offer with the settings, features and tags of another one in
 * any status, named `name` (default "<name> (copy)"). Version and history start afresh.
 */
export async function cloneOffer(ctx: DomainContext, id: string, name?: string) {
  const offer = await ctx.db.offer.findUnique({ where: { id } });
  if (!offer) throw notFound("Offer");
  const tags = (await readRecordTags(ctx.db, [id])).get(id) ?? [];
  const copyName = name ?? `${offer.name} (copy)`.slice(0, 200);
  return createOffer(ctx, parseOfferWrite({ ...offerWriteValues(offer), name: copyName, tags }));
}
