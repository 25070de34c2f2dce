/**
 * URL of the freshly migrated test database that the int project's globalSetup
 * (tests/helpers/global-setup.ts) provides.
 */
export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL_MIGRATED;
  if (!url)
    throw new Error(
      "TEST_DATABASE_URL_MIGRATED is not set: run integration tests with `npm run test:int` (its globalSetup prepares the database).",
    );
  return url;
}
