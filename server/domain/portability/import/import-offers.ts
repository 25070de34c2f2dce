import type { DomainContext } from "../../context.ts";
import { createOffer, replaceOffer } from "../../entitlements/offers/write-offer.ts";
import { deleteOffer, publishOffer } from "../../entitlements/offers/offer-lifecycle.ts";
import { grantOfferAddOn } from "../../entitlements/add-on-grants/add-on-grants.ts";
import { ZOfferWriteRequest } from "../../entitlements/offers/offer.schemas.ts";
import { ZAddOnGrantCreateRequest } from "../../entitlements/add-on-grants/add-on-grant.schemas.ts";
import { ZActivationPolicy, ZClaimBasedActivation } from "../../entitlements/entitlement/policies.schemas.ts";
import { ZKeyIssuancePolicy } from "../../entitlements/entitlement/key-issuance-policy.schemas.ts";
import { ZBillingFields } from "../../entitlements/billing/billing.schemas.ts";
import { portableKeyPolicy } from "../../entitlements/offers/template-copy.ts";
import type { z } from "zod";
import { mergeField } from "./comparison.ts";
import { inSavepoint, ItemRefusal, parseDomainInput, type ImportRun } from "./import-run.ts";
import type { SectionImporter } from "./import-section.ts";
import { ZPortableOffer, type TPortableOffer } from "../snapshot/snapshot-items.schemas.ts";

type OfferFeature = TPortableOffer["features"][number];

/** A value as a schema reads it (defaults filled), or as given when it does not read. */
const asRead = (schema: z.ZodType, value: unknown): unknown => {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : value;
};
const byFeature = {
  kind: "list" as const,
  key: (f: unknown) => (f as OfferFeature).featureCode.toUpperCase(),
};
const lower = (v: unknown) => String(v).toLowerCase();

/**
 * The fields an import copies as they are and compares one by one: every field of the file's offer
 * item (template fields included, offer-template.ts) but its id, its name (the match key), its
 * status (moved by publish and archive) and the fields that hold references or lists, which are
 * remapped and merged below.
 */
const notScalar = new Set([
  "id",
  "name",
  "status",
  "productIds",
  "features",
  "planSetId",
  "activationPolicy",
  "tags",
  "addOnGrants",
]);
const scalarFields = (Object.keys(ZPortableOffer.shape) as (keyof TPortableOffer)[]).filter(
  (f) => !notScalar.has(f),
);

/** The offer's fields for the write schema, its references remapped; what cannot be remapped refuses the item. */
async function writeInput(
  run: ImportRun,
  o: TPortableOffer,
  base: { productIds: string[]; features: OfferFeature[]; tags: string[] },
  notes: string[],
) {
  const planSetId = await run.resolve("PlanSet", o.planSetId);
  if (o.planSetId && !planSetId)
    throw new ItemRefusal(`Its plan set ${run.sourceKeyOf(o.planSetId)} is not in the target.`);
  const activationPolicy = { ...o.activationPolicy };
  const organization = activationPolicy.requireOrganizationGroupMember;
  if (typeof organization === "string") {
    const resolved = await run.resolve("CustomerOrganization", organization);
    if (!resolved)
      notes.push(
        `activationPolicy.requireOrganizationGroupMember cleared: customer organization ${run.sourceKeyOf(organization)} is not in the target.`,
      );
    activationPolicy.requireOrganizationGroupMember = resolved;
  }
  const settings = new Map<string, OfferFeature>();
  for (const f of base.features)
    if (!settings.has(f.featureCode.toUpperCase())) settings.set(f.featureCode.toUpperCase(), f);
  return parseDomainInput(ZOfferWriteRequest, {
    name: o.name,
    ...Object.fromEntries(scalarFields.map((f) => [f, o[f]])),
    productIds: base.productIds,
    features: [...settings.values()].map((f) => ({
      featureCode: f.featureCode,
      value: f.value,
      isEnabled: f.isEnabled,
      canModifyValueOnEntitlement: f.canModifyValueOnEntitlement,
      includeInLicenseToken: f.includeInLicenseToken,
      featureExpiration: f.featureExpiration,
    })),
    planSetId,
    activationPolicy,
    tags: base.tags,
  });
}

async function resolveProducts(run: ImportRun, o: TPortableOffer): Promise<string[]> {
  const ids: string[] = [];
  for (const sourceId of o.productIds) {
    const id = await run.resolve("Product", sourceId);
    if (!id) throw new ItemRefusal(`Its product ${run.sourceKeyOf(sourceId)} is not in the target.`);
    ids.push(id);
  }
  return ids;
}

/** Grants the file's add-ons the offer does not hold yet (grantOfferAddOn's rules apply to each). */
async function grantMissing(
  run: ImportRun,
  ctx: DomainContext,
  offerId: string,
  o: TPortableOffer,
  notes: string[],
) {
  const held = new Set(
    (
      await ctx.db.addOnGrant.findMany({ where: { offerId, isRevoked: false }, select: { addOnId: true } })
    ).map((g) => g.addOnId),
  );
  let granted = 0;
  for (const g of o.addOnGrants) {
    const addOnId = await run.resolve("AddOn", g.addOnId);
    if (!addOnId) {
      notes.push(`Add-on ${run.sourceKeyOf(g.addOnId)} not granted: it is not in the target.`);
      continue;
    }
    if (held.has(addOnId)) continue;
    const campaignId = await run.resolve("RatingCampaign", g.campaignId);
    if (g.campaignId && !campaignId)
      notes.push(
        `The grant of ${run.sourceKeyOf(g.addOnId)} is made without its campaign ${run.sourceKeyOf(g.campaignId)} (not in the target yet).`,
      );
    const outcome = await inSavepoint(ctx, (c) =>
      grantOfferAddOn(
        c,
        offerId,
        parseDomainInput(ZAddOnGrantCreateRequest, {
          addOnId,
          startsAtUtc: g.startsAt,
          expiresAtUtc: g.expiresAt,
          reference: g.reference,
          campaignId,
        }),
      ),
    );
    if (outcome.ok) {
      held.add(addOnId);
      granted++;
    } else notes.push(`Add-on ${run.sourceKeyOf(g.addOnId)} not granted: ${outcome.reason}`);
  }
  return granted;
}

/**
 * Offers (`entitlementOffers`): matched by name (a live offer before an archived one). Created
 * through createOffer (its feature snapshot and asset copies are taken from the target's
 * products), then granted its add-ons and moved to the file's status (publish, then archive).
 * An update replaces the offer's fields (replaceOffer; a published offer's version goes up),
 * adding products, feature settings, tags and grants; archived offers are read-only.
 */
export const offersImporter: SectionImporter<"entitlementOffers"> = {
  section: "entitlementOffers",
  refKinds: ["Product", "PlanSet", "AddOn", "CustomerOrganization"],
  fields: {
    ...Object.fromEntries(scalarFields.map((f) => [f, { kind: "value" as const }])),
    activationPolicy: { kind: "value" },
    planSet: { kind: "value" },
    products: { kind: "set" },
    features: byFeature,
    tags: { kind: "set", key: lower },
    addOnGrants: { kind: "set" },
    status: { kind: "value" },
  },
  comparable: (o, keyOf) => ({
    ...Object.fromEntries(scalarFields.map((f) => [f, o[f]])),
    // Policies compare as the write schema reads them, so defaults a file leaves out are no difference.
    billingTemplate: o.billingTemplate ? asRead(ZBillingFields, o.billingTemplate) : null,
    keyIssuancePolicy: portableKeyPolicy(asRead(ZKeyIssuancePolicy, o.keyIssuancePolicy)),
    claimBasedActivation: asRead(ZClaimBasedActivation, o.claimBasedActivation),
    activationPolicy: {
      ...(asRead(ZActivationPolicy, o.activationPolicy) as Record<string, unknown>),
      requireOrganizationGroupMember: keyOf(
        o.activationPolicy.requireOrganizationGroupMember as string | null,
      ),
    },
    planSet: keyOf(o.planSetId),
    products: o.productIds.map((id) => keyOf(id)),
    features: o.features.map((f) => ({
      ...f,
      productId: keyOf(f.productId),
      featureCode: f.featureCode.toUpperCase(),
    })),
    tags: o.tags,
    addOnGrants: o.addOnGrants.map((g) => keyOf(g.addOnId)),
    status: o.status,
  }),

  async create(run, ctx, o) {
    const notes: string[] = [];
    const productIds = await resolveProducts(run, o);
    const offer = await createOffer(
      ctx,
      await writeInput(run, o, { productIds, features: o.features, tags: o.tags }, notes),
    );
    await grantMissing(run, ctx, offer.id, o, notes);
    if (o.status === "Published" || o.status === "Archived") {
      const published = await inSavepoint(ctx, (c) => publishOffer(c, offer.id));
      if (!published.ok) notes.push(`Kept Draft: ${published.reason}`);
      else if (o.status === "Archived") await deleteOffer(ctx, offer.id);
    }
    return { id: offer.id, notes };
  },

  async update(run, ctx, o, { id, current, changes }) {
    const notes: string[] = [];
    const productIds = mergeField(
      { kind: "set" },
      current.productIds,
      await resolveProducts(run, o),
    ) as string[];
    const features = mergeField(
      byFeature,
      current.features,
      o.features.map((f) => ({ ...f })),
    ) as OfferFeature[];
    const tags = mergeField({ kind: "set", key: lower }, current.tags, o.tags) as string[];
    const input = await writeInput(run, o, { productIds, features, tags }, notes);
    const grantsOrStatus = new Set(["addOnGrants", "status"]);
    const differs = changes.some((c) => c.isDifferent && !grantsOrStatus.has(c.field));
    let applied = false;
    if (differs || current.status === "Archived") {
      await replaceOffer(ctx, id, input);
      applied = true;
    }
    if ((await grantMissing(run, ctx, id, o, notes)) > 0) applied = true;
    if (o.status !== current.status) {
      if (current.status === "Draft" && (o.status === "Published" || o.status === "Archived")) {
        await publishOffer(ctx, id);
        applied = true;
        if (o.status === "Archived") await deleteOffer(ctx, id);
      } else if (current.status === "Published" && o.status === "Archived") {
        await deleteOffer(ctx, id);
        applied = true;
      } else
        notes.push(
          `Status kept ${current.status}: an offer does not move from ${current.status} to ${o.status}.`,
        );
    }
    return { notes, nothingApplied: !applied };
  },
};
