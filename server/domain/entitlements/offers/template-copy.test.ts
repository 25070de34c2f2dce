import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  portableShapeOf,
  requestShapeOf,
  responseShapeOf,
  templateDefinition,
  templateFieldNames,
} from "./offer-template.ts";
import { templateCopies, templateCopy, type TemplateRow } from "./template-copy.ts";
import { ZOfferResponse, ZOfferWriteRequest } from "./offer.schemas.ts";
import { ZEntitlementResponse } from "../entitlement/entitlement.schemas.ts";
import { ZPortableOffer } from "../../portability/snapshot/snapshot-items.schemas.ts";

const decimal = (n: number) => ({ toNumber: () => n });

/** A stored offer's template columns, every field set. */
const row = {
  name: "Pro",
  description: "The pro plan",
  subscriptionStatus: "Active",
  licenseTermsUrl: "https://example.test/terms",
  customerContactName: "Ada",
  customerContactEmail: "ada@example.test",
  licenseKey: "KEY-1",
  notValidBeforeDateTime: new Date("2026-01-01T00:00:00.000Z"),
  expirationDateTime: new Date("2027-01-01T00:00:00.000Z"),
  isEntitlementTrial: true,
  issueOnUserRegistration: false,
  allowAnonymousTry: true,
  consumersMayGrantCredits: true,
  consumerGrantLimitPerGrant: decimal(50),
  consumerGrantLimitPerMonth: null,
  isPlatformOffer: false,
  productIds: ["11111111-1111-4111-8111-111111111111"],
  features: [
    {
      productId: "11111111-1111-4111-8111-111111111111",
      featureCode: "EXPORT",
      value: "10",
      isEnabled: true,
      canModifyValueOnEntitlement: false,
      includeInLicenseToken: true,
      featureExpiration: null,
      name: "Export",
      meteredAssetId: null,
    },
  ],
  planSetId: "22222222-2222-4222-8222-222222222222",
  planName: "Gold",
  activationPolicy: { requireProductCode: true },
  keyIssuancePolicy: { template: "AB-XXXX-XXXX-XXXX", sequenceCurrent: 7 },
  claimBasedActivation: { numberOfSeats: 3 },
} as unknown as TemplateRow;

describe("the offer/entitlement template is one definition (offer-template.ts)", () => {
  it("lists the template fields in their published order", () => {
    expect(templateFieldNames).toEqual([
      "name",
      "description",
      "subscriptionStatus",
      "licenseTermsUrl",
      "customerContactName",
      "customerContactEmail",
      "licenseKey",
      "notValidBeforeDateTime",
      "expirationDateTime",
      "isEntitlementTrial",
      "issueOnUserRegistration",
      "allowAnonymousTry",
      "consumersMayGrantCredits",
      "consumerGrantLimitPerGrant",
      "consumerGrantLimitPerMonth",
      "isPlatformOffer",
      "productIds",
      "features",
      "planSetId",
      "planName",
      "activationPolicy",
      "keyIssuancePolicy",
      "claimBasedActivation",
    ]);
  });

  it("a field added to a definition is carried to the row, the request, the response and the file", () => {
    const extended = {
      ...templateDefinition,
      supportTier: {
        copy: "value" as const,
        request: z.string().default("Basic"),
        response: z.string(),
        portable: z.string().default("Basic"),
      },
      renewsAt: {
        copy: "date" as const,
        request: z.string().nullable().default(null),
        response: z.string().nullable(),
        portable: null,
      },
    };
    const copies = templateCopies(extended);
    const stored = { ...row, supportTier: "Gold", renewsAt: new Date("2026-06-01T00:00:00.000Z") };

    expect(copies.rowData({ supportTier: "Gold", renewsAt: "2026-06-01T00:00:00.000Z" })).toMatchObject({
      supportTier: "Gold",
      renewsAt: new Date("2026-06-01T00:00:00.000Z"),
    });
    expect(copies.requestValues(stored)).toMatchObject({
      supportTier: "Gold",
      renewsAt: "2026-06-01T00:00:00.000Z",
    });
    expect(copies.responseValues(stored)).toMatchObject({
      supportTier: "Gold",
      renewsAt: "2026-06-01T00:00:00.000Z",
    });
    expect(copies.portableValues(stored)).toMatchObject({ supportTier: "Gold" });
    expect(copies.portableValues(stored)).not.toHaveProperty("renewsAt");

    expect(Object.keys(requestShapeOf(extended)).slice(-2)).toEqual(["supportTier", "renewsAt"]);
    expect(Object.keys(responseShapeOf(extended)).slice(-2)).toEqual(["supportTier", "renewsAt"]);
    expect(Object.keys(portableShapeOf(extended)).slice(-1)).toEqual(["supportTier"]);
  });

  it("every template field reaches an entitlement's row, the responses and the offer write request", () => {
    const responseKey = (f: string) => (f === "productIds" ? "products" : f);
    for (const f of templateFieldNames) {
      expect(Object.keys(ZOfferWriteRequest.shape), f).toContain(f);
      expect(Object.keys(ZOfferResponse.shape), f).toContain(responseKey(f));
      expect(Object.keys(ZEntitlementResponse.shape), f).toContain(responseKey(f));
    }
    const request = ZOfferWriteRequest.parse({ name: "Pro", productIds: [], planSetId: null });
    // features are the snapshot of template-snapshot.ts, taken by createOffer and createEntitlement
    expect(Object.keys(templateCopy.rowData(request))).toEqual(
      templateFieldNames.filter((f) => f !== "features"),
    );
  });

  it("every template field but the consumer grant limits travels in the catalog file", () => {
    const inFile = templateFieldNames.filter(
      (f) => f !== "consumerGrantLimitPerGrant" && f !== "consumerGrantLimitPerMonth",
    );
    expect(Object.keys(templateCopy.portableValues(row))).toEqual(inFile);
    for (const f of inFile) expect(Object.keys(ZPortableOffer.shape), f).toContain(f);
  });

  it("copies each value by its rule", () => {
    expect(
      templateCopy.rowData(ZOfferWriteRequest.parse({ ...templateCopy.requestValues(row), features: [] })),
    ).toEqual({
      name: "Pro",
      description: "The pro plan",
      subscriptionStatus: "Active",
      licenseTermsUrl: "https://example.test/terms",
      customerContactName: "Ada",
      customerContactEmail: "ada@example.test",
      licenseKey: "KEY-1",
      notValidBeforeDateTime: new Date("2026-01-01T00:00:00.000Z"),
      expirationDateTime: new Date("2027-01-01T00:00:00.000Z"),
      isEntitlementTrial: true,
      issueOnUserRegistration: false,
      allowAnonymousTry: true,
      consumersMayGrantCredits: true,
      consumerGrantLimitPerGrant: "50.000000",
      consumerGrantLimitPerMonth: null,
      isPlatformOffer: false,
      productIds: ["11111111-1111-4111-8111-111111111111"],
      planSetId: "22222222-2222-4222-8222-222222222222",
      planName: "Gold",
      activationPolicy: expect.objectContaining({ requireProductCode: true }),
      keyIssuancePolicy: expect.objectContaining({ sequenceCurrent: 7 }),
      claimBasedActivation: expect.objectContaining({ numberOfSeats: 3 }),
    });
    expect(templateCopy.responseValues(row)).toMatchObject({
      notValidBeforeDateTime: "2026-01-01T00:00:00.000Z",
      consumerGrantLimitPerGrant: 50,
      consumerGrantLimitPerMonth: null,
      keyIssuancePolicy: { template: "AB-XXXX-XXXX-XXXX", sequenceCurrent: 7 },
    });
    expect(templateCopy.responseValues(row)).not.toHaveProperty("productIds");
    expect(templateCopy.portableValues(row)).toMatchObject({
      expirationDateTime: "2027-01-01T00:00:00.000Z",
      // the last code number issued is the source tenant's own counter
      keyIssuancePolicy: { template: "AB-XXXX-XXXX-XXXX" },
      features: [
        {
          productId: "11111111-1111-4111-8111-111111111111",
          featureCode: "EXPORT",
          value: "10",
          isEnabled: true,
          canModifyValueOnEntitlement: false,
          includeInLicenseToken: true,
          featureExpiration: null,
        },
      ],
    });
  });
});

describe("the published field order of offers, entitlements and the file's offer item is kept", () => {
  it("offer response", () => {
    expect(Object.keys(ZOfferResponse.shape)).toEqual([
      "id",
      "isOffer",
      "status",
      "version",
      "name",
      "description",
      "subscriptionStatus",
      "licenseTermsUrl",
      "customerContactName",
      "customerContactEmail",
      "licenseKey",
      "notValidBeforeDateTime",
      "expirationDateTime",
      "validityDays",
      "isEntitlementTrial",
      "issueOnUserRegistration",
      "allowAnonymousTry",
      "consumersMayGrantCredits",
      "consumerGrantLimitPerGrant",
      "consumerGrantLimitPerMonth",
      "isPlatformOffer",
      "products",
      "features",
      "planSetId",
      "planName",
      "billingTemplate",
      "activationPolicy",
      "keyIssuancePolicy",
      "claimBasedActivation",
      "tags",
      "publishedAt",
      "createdAt",
      "updatedAt",
      "revisionNumber",
    ]);
  });

  it("entitlement response", () => {
    expect(Object.keys(ZEntitlementResponse.shape)).toEqual([
      "id",
      "isOffer",
      "status",
      "version",
      "name",
      "description",
      "subscriptionStatus",
      "licenseTermsUrl",
      "customerContactName",
      "customerContactEmail",
      "licenseKey",
      "reference",
      "externalReference",
      "notValidBeforeDateTime",
      "expirationDateTime",
      "isEntitlementTrial",
      "issueOnUserRegistration",
      "allowAnonymousTry",
      "consumersMayGrantCredits",
      "consumerGrantLimitPerGrant",
      "consumerGrantLimitPerMonth",
      "isAnonymousTry",
      "isPlatformOffer",
      "convertedToEntitlementId",
      "anonymousTryIssuedAt",
      "anonymousTryPurgeDueAt",
      "sourceOfferId",
      "originOfferId",
      "customerId",
      "customerKind",
      "activationsEnabled",
      "transferCount",
      "products",
      "features",
      "featureOverrides",
      "planSetId",
      "planName",
      "planHistory",
      "activationPolicy",
      "keyIssuancePolicy",
      "claimBasedActivation",
      "createdAt",
      "updatedAt",
      "revisionNumber",
    ]);
  });

  it("the catalog file's offer item", () => {
    expect(Object.keys(ZPortableOffer.shape)).toEqual([
      "id",
      "name",
      "description",
      "status",
      "subscriptionStatus",
      "licenseTermsUrl",
      "customerContactName",
      "customerContactEmail",
      "licenseKey",
      "notValidBeforeDateTime",
      "expirationDateTime",
      "validityDays",
      "isEntitlementTrial",
      "issueOnUserRegistration",
      "allowAnonymousTry",
      "consumersMayGrantCredits",
      "isPlatformOffer",
      "productIds",
      "features",
      "planSetId",
      "planName",
      "billingTemplate",
      "activationPolicy",
      "keyIssuancePolicy",
      "claimBasedActivation",
      "tags",
      "addOnGrants",
    ]);
  });
});
