import { templateCopy } from "../../entitlements/offers/template-copy.ts";
import { ZPortableOffer, type TPortableOffer } from "../snapshot/snapshot-items.schemas.ts";
import { tagEdges, type Edge, type SectionExporter } from "./section-exporter.ts";
import { recordTagRefs } from "./record-tag-refs.ts";

const obj = (v: unknown) =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const iso = (d: Date | null) => d?.toISOString() ?? null;

/** An item's fields in the file's field order (ZPortableOffer), as earlier exports wrote them. */
const inFileOrder = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(ZPortableOffer.shape).map((key) => [key, values[key]])) as TPortableOffer;

/**
 * Offers (the `entitlementOffers` section). `All` takes the offers that are not archived (an
 * archived offer is a deleted one kept for history); an archived offer travels when it is named or
 * needed. Features travel as the offer's settings of its products' features; the asset copies are
 * re-made from the target's products, as creating an offer does. Unrevoked add-on grants travel.
 */
export const offersExporter: SectionExporter<"entitlementOffers"> = {
  async allIds(db) {
    const rows = await db.offer.findMany({ where: { status: { not: "Archived" } }, select: { id: true } });
    return rows.map((r) => r.id);
  },
  async read(db, ids) {
    const rows = await db.offer.findMany({ where: { id: { in: [...ids] } } });
    const live = rows.map((r) => r.id);
    const [tags, grants] = await Promise.all([
      recordTagRefs(db, live),
      db.addOnGrant.findMany({
        where: { offerId: { in: live }, isRevoked: false },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      }),
    ]);
    return new Map(
      rows.map((row) => {
        const rowTags = tags.get(row.id) ?? [];
        const rowGrants = grants.filter((g) => g.offerId === row.id);
        const activationPolicy = obj(row.activationPolicy);
        const edges: Edge[] = [
          ...row.productIds.map((id) => ({ field: "productIds", kind: "Product" as const, id })),
          ...tagEdges(rowTags),
          ...rowGrants.map((g) => ({ field: "addOnGrants.addOnId", kind: "AddOn" as const, id: g.addOnId })),
          ...rowGrants
            .filter((g) => g.campaignId)
            .map((g) => ({
              field: "addOnGrants.campaignId",
              kind: "RatingCampaign" as const,
              id: g.campaignId!,
            })),
        ];
        if (row.planSetId) edges.push({ field: "planSetId", kind: "PlanSet", id: row.planSetId });
        const organization = activationPolicy.requireOrganizationGroupMember;
        if (typeof organization === "string")
          edges.push({
            field: "activationPolicy.requireOrganizationGroupMember",
            kind: "CustomerOrganization",
            id: organization,
          });
        return [
          row.id,
          {
            item: inFileOrder({
              id: row.id,
              ...templateCopy.portableValues(row),
              status: row.status,
              validityDays: row.validityDays,
              billingTemplate: row.billingTemplate ? obj(row.billingTemplate) : null,
              tags: rowTags.map((t) => t.name),
              addOnGrants: rowGrants.map((g) => ({
                addOnId: g.addOnId,
                startsAt: g.startsAt.toISOString(),
                expiresAt: iso(g.expiresAt),
                reference: g.reference,
                campaignId: g.campaignId,
              })),
            }),
            edges,
          },
        ];
      }),
    );
  },
};
