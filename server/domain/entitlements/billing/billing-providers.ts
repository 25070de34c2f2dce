/**
 * Billing providers a billing record may name (docs/api.md: "a built-in provider name or one a
 * connector registered"). `manual` is built in: an operator records the subscription's state by
 * hand through POST /admin/entitlements/{id}/billing/manual-events. A connector registers its
 * name at start-up and reports through applyBillingProviderEvent.
 */
const providers = new Set<string>(["manual"]);

export const MANUAL_PROVIDER = "manual";

export function registerBillingProvider(name: string): void {
  if (!/^[a-z][a-z0-9-]{1,49}$/.test(name)) throw new Error(`Invalid billing provider name ${name}.`);
  providers.add(name);
}

export const isBillingProvider = (name: string) => providers.has(name);
export const billingProviderNames = () => [...providers];
