export const E2E_PASSWORD = "e2e-password-123";

/** What e2e/global-setup.ts prepares for the tests. */
export type E2eState = {
  baseUrl: string;
  databaseUrl: string;
  tenantId: string;
  tenantName: string;
  tenantSlug: string;
  staff: { email: string; password: string };
  consumer: { email: string; password: string; name: string };
  sharedConsumer: { email: string; password: string; otherTenantSlug: string };
};

export function e2eState(): E2eState {
  const raw = process.env.E2E_STATE;
  if (!raw)
    throw new Error(
      "E2E_STATE is not set: run the tests with `npx playwright test` (e2e/global-setup.ts prepares it).",
    );
  return JSON.parse(raw) as E2eState;
}
