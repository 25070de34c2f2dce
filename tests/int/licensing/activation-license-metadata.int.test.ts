import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { createTestTenant, request, type TestTenant } from "../../helpers/api.ts";
import { PRODUCTS, makeFeature, makeProduct, uniqueCode } from "../../helpers/catalog-products.ts";
import { ENTITLEMENT_SCOPES, makeEntitlement, ok } from "../../helpers/entitlements.ts";
import { activateJwt, activateLicense, claimsOf } from "../../helpers/runtime.ts";

/**
 * docs/api.md "Runtime surface", POST /activations/license: the token plus "licensed products with
 * their Public custom properties, each feature's name and description". Built through the admin
 * API only, so it holds whatever the activation code path becomes.
 */
describe("activation response metadata", () => {
  let tenant: TestTenant;
  let code: string;
  const secret = `private-${randomUUID()}`;

  beforeAll(async () => {
    tenant = await createTestTenant("Activation metadata");
    const token = await tenant.token([...ENTITLEMENT_SCOPES, "provision.activation-code.*"]);
    const product = await makeProduct(token, {
      name: "Studio",
      propertyValues: {
        edition: { value: "Professional", visibility: "Public" },
        supportUrl: { value: "https://example.com/support", visibility: "Public" },
        costCenter: { value: secret, visibility: "Private" },
        internalNote: { value: `${secret}-note` },
      },
    });
    const export_ = await makeFeature(token, {
      featureCode: uniqueCode("EXPORT").toUpperCase().replace(/-/g, "_"),
      featureType: "Boolean",
      name: "Export",
    });
    ok(
      await request("POST", `${PRODUCTS}/${product.id}/features`, {
        token,
        body: {
          featureCatalogId: export_.id,
          name: "PDF export",
          description: "Export drawings as PDF files.",
          value: "true",
        },
      }),
    );
    const entitlement = await makeEntitlement(token, {
      name: "Studio license",
      productIds: [product.id],
      claimBasedActivation: {
        leaseTime: "PT1H",
        gracePeriod: "P1D",
        numberOfSeats: 10,
        isFloatingLicense: false,
      },
    });
    const issued = ok(
      await request("POST", `/api/v1/provision/operational/entitlements/${entitlement.id}/activation-codes`, {
        token,
        body: {},
      }),
    );
    code = issued.codes[0].code;
  });

  it("Private product properties never appear in the activation response; Public ones do", async () => {
    const res = await activateLicense({ activationCode: code, fingerprint: `meta-${randomUUID()}` });
    expect(res.status, res.text).toBe(200);
    expect(res.body.license.products).toHaveLength(1);
    expect(res.body.license.products[0].properties).toEqual({
      edition: "Professional",
      supportUrl: "https://example.com/support",
    });
    expect(res.text).not.toContain(secret);
    expect(res.text).not.toContain("costCenter");
    expect(res.text).not.toContain("internalNote");
    expect(JSON.stringify(claimsOf(res.body.token))).not.toContain(secret);
  });

  it("the activation response carries each feature's name and description", async () => {
    const res = await activateLicense({ activationCode: code, fingerprint: `meta-${randomUUID()}` });
    expect(res.status, res.text).toBe(200);
    expect(res.body.license.features).toEqual([
      expect.objectContaining({
        name: "PDF export",
        description: "Export drawings as PDF files.",
        value: "true",
        isEnabled: true,
      }),
    ]);
  });

  it("the token-only activation carries no product property at all", async () => {
    const res = await activateJwt({ activationCode: code, fingerprint: `meta-${randomUUID()}` });
    expect(res.status, res.text).toBe(200);
    const claims = JSON.stringify(claimsOf(res.body));
    expect(claims).not.toContain(secret);
    expect(claims).not.toContain("Professional");
  });
});
