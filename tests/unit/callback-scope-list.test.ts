import { describe, expect, it } from "vitest";
import {
  allowedCallbackScopes,
  validateCallbackScopes,
} from "../../server/domain/webhooks/subscriptions/callback-scopes.ts";

/**
 * The callback scopes a webhook subscription may carry, written out (docs/decisions.md maps each
 * family — catalog, licenses, sessions, usage, quotas, credit balances, metrics, ratings — to
 * these concrete scopes): a scope added to or dropped from a family changes this list.
 */
const ALLOWED = [
  "provision.activation-code.read",
  "provision.add-on.read",
  "provision.balance.create",
  "provision.balance.read",
  "provision.balance.update",
  "provision.entitlement-adm.read",
  "provision.feature-catalog.read",
  "provision.monitored-asset.read",
  "provision.plan-set.read",
  "provision.product.read",
  "provision.rating-campaign.read",
  "provision.session.read",
  "provision.suite.read",
  "provision.tag.read",
  "provision.usage.read",
];

describe("callback scope list", () => {
  it("is exactly the fifteen concrete read and credit-balance scopes", () => {
    expect([...allowedCallbackScopes]).toEqual(ALLOWED);
    expect(validateCallbackScopes(ALLOWED)).toEqual(ALLOWED);
  });

  it.each([
    "provision.product.*",
    "provision.*",
    "provision.product.delete",
    "provision.balance.delete",
    "provision.customer.read",
    "provision.webhook.read",
    "provision.device.read",
    "provision.offline.create",
    "provision.catalog.read",
    "provision.audit.read",
    "webhooks.integrator",
  ])("refuses %s", (scope) => {
    let codeName: string | undefined;
    try {
      validateCallbackScopes([scope]);
    } catch (error) {
      codeName = (error as { codeName?: string }).codeName;
    }
    expect(codeName).toBe("subscription.invalid_callback_scope");
  });
});
