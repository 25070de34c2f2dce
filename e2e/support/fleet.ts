import { randomUUID } from "node:crypto";
import { expect } from "@playwright/test";
import { createProduct } from "../../server/domain/catalog/products/create-product.ts";
import { ZProductCreateRequest } from "../../server/domain/catalog/products/product.schemas.ts";
import { issueActivationCodes } from "../../server/domain/licensing/activation-codes/issue-activation-codes.ts";
import { createCustomerOrganization } from "../../server/domain/customers/customer-organizations.ts";
import { ZCustomerOrganizationCreateRequest } from "../../server/domain/customers/customer.schemas.ts";
import { seedConsumerCustomer, seedEntitlement, withTenantContext } from "./seed.ts";
import type { E2eState } from "./state.ts";

/**
 * A license of its own product, made by the domain functions, whose devices activate over the
 * runtime API as a shipped application would (one activation code, one activation per device).
 * Names carry a random tag so lists filtered by name show this test's rows only.
 */
export async function fleetLicense(
  state: E2eState,
  options: {
    devices?: string[];
    forConsumer?: boolean;
    expirationDateTime?: string;
    /** Assign the license to a new customer organization of this name. */
    organization?: string;
  } = {},
) {
  const tag = randomUUID().slice(0, 6);
  const seeded = await withTenantContext(state, async (ctx) => {
    const product = await createProduct(
      ctx,
      ZProductCreateRequest.parse({ name: `Fleet product ${tag}`, productCode: `FLEET-${tag}` }),
    );
    const customer = options.organization
      ? await createCustomerOrganization(
          ctx,
          ZCustomerOrganizationCreateRequest.parse({ name: options.organization }),
        )
      : options.forConsumer
        ? await seedConsumerCustomer(ctx, state.consumer.email)
        : null;
    const entitlement = await seedEntitlement(ctx, {
      name: `Fleet licence ${tag}`,
      productIds: [product.id],
      claimBasedActivation: { numberOfSeats: 5 },
      ...(customer ? { customerId: customer.id } : {}),
      ...(options.expirationDateTime ? { expirationDateTime: options.expirationDateTime } : {}),
    });
    const issued = await issueActivationCodes(ctx, entitlement.id, { count: 1 });
    return { entitlement, code: issued.codes[0].code, productId: product.id };
  });
  for (const deviceName of options.devices ?? []) {
    const res = await fetch(`${state.baseUrl}/api/v1/provision/activations/jwt`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        activationCode: seeded.code,
        fingerprint: `fp-${tag}-${deviceName}`,
        deviceName,
      }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
  }
  return { tag, id: seeded.entitlement.id, name: seeded.entitlement.name, productId: seeded.productId };
}
