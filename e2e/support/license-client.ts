/**
 * The reference client (scripts/license-client.ts) run as its own process, the way a shipped
 * application uses the runtime surface: compiled once, as the integration tests run it. Answers
 * its exit code, its JSON output and its stderr.
 */
export { licenseClient } from "../../tests/helpers/license-client.ts";
