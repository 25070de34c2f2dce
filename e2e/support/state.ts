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
  sharedConsumer: { email: string; password: string; otherTenantSlug: string; otherTenantName: string };
};

/** The world e2e/global-setup.ts prepared for the worker at `parallelIndex`. */
export function e2eState(parallelIndex = 0): E2eState {
  const raw = process.env.E2E_STATE;
  if (!raw)
    throw new Error(
      "E2E_STATE is not set: run the tests with `npx playwright test` (e2e/global-setup.ts prepares it).",
    );
  const worlds = JSON.parse(raw) as E2eState[];
  const world = worlds[parallelIndex];
  if (!world) throw new Error(`E2E_STATE has ${worlds.length} worlds; no world for worker ${parallelIndex}.`);
  return world;
}
