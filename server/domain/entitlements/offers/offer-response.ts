import { limitFieldsOf } from "./consumer-grant-limits.ts";
import type { TenantDbOrTx } from "../../../db/tenant-db.ts";
import type { Offer } from "../../../db/generated/client.ts";
import { productsByIds } from "../../catalog/pricing-lookups.ts";
import { readRecordTags } from "../../catalog/tags/record-tags.ts";
import { ZOfferResponse, type TOfferResponse } from "./offer.schemas.ts";
import type { TEntitlementFeature } from "../entitlement/policies.schemas.ts";
import { iso } from "../../../core/iso-date.ts";

const obj = (v: unknown) =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export async function toOfferResponses(db: TenantDbOrTx, rows: readonly Offer[]): Promise<TOfferResponse[]> {
  const [products, tags] = await Promise.all([
    productsByIds(
      db,
      rows.flatMap((r) => r.productIds),
    ),
    readRecordTags(
      db,
      rows.map((r) => r.id),
    ),
  ]);
  return rows.map((row) =>
    ZOfferResponse.parse({
      id: row.id,
      isOffer: true,
      status: row.status,
      version: row.version,
      name: row.name,
      description: row.description,
      subscriptionStatus: row.subscriptionStatus,
      licenseTermsUrl: row.licenseTermsUrl,
      customerContactName: row.customerContactName,
      customerContactEmail: row.customerContactEmail,
      licenseKey: row.licenseKey,
      notValidBeforeDateTime: iso(row.notValidBeforeDateTime),
      expirationDateTime: iso(row.expirationDateTime),
      validityDays: row.validityDays,
      isEntitlementTrial: row.isEntitlementTrial,
      issueOnUserRegistration: row.issueOnUserRegistration,
      allowAnonymousTry: row.allowAnonymousTry,
      consumersMayGrantCredits: row.consumersMayGrantCredits,
      ...limitFieldsOf(row),
      isPlatformOffer: row.isPlatformOffer,
      products: row.productIds.map((id) => {
        const p = products.get(id);
        return {
          id,
          productCode: p?.productCode ?? null,
          productVersion: p?.productVersion ?? null,
          name: p?.name ?? null,
        };
      }),
      features: row.features as TEntitlementFeature[],
      planSetId: row.planSetId,
      planName: row.planName,
      billingTemplate: row.billingTemplate ? obj(row.billingTemplate) : null,
      activationPolicy: obj(row.activationPolicy),
      keyIssuancePolicy: obj(row.keyIssuancePolicy),
      claimBasedActivation: obj(row.claimBasedActivation),
      tags: tags.get(row.id) ?? [],
      publishedAt: iso(row.publishedAt),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      revisionNumber: row.revisionNumber,
    }),
  );
}

export async function readOffer(db: TenantDbOrTx, id: string): Promise<TOfferResponse | null> {
  const row = await db.offer.findUnique({ where: { id } });
  return row ? (await toOfferResponses(db, [row]))[0] : null;
}
