// The tables of docs/api.md that the code owns (endpoints, scopes, error codes, event types), written
// from the same catalogs the service serves, so the reference cannot drift from the API:
// `npm run docs:reference` rewrites them and tests/unit/docs-reference-tables.test.ts fails when
// docs/api.md holds an older copy.
import { allContracts } from "../../server/http/contracts/index.ts";
import { requiredScope } from "../../server/http/auth.ts";
import { errorCatalog } from "../../server/core/errors.ts";
import { scopeDescriptions, scopeResources, INTEGRATOR_SCOPE } from "../../server/domain/identity/scopes.ts";
import { eventTypes } from "../../server/domain/webhooks/events/event-types.ts";

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();

const credentialOf: Record<string, string> = {
  anonymous: "none",
  license: "license token",
  consumer: "user token",
  integrator: `\`${INTEGRATOR_SCOPE}\``,
};

function endpointsTable(): string {
  const order = ["GET", "POST", "PUT", "PATCH", "DELETE"];
  const rows = [...allContracts]
    .sort((a, b) => a.path.localeCompare(b.path) || order.indexOf(a.method) - order.indexOf(b.method))
    .map((c) => {
      const scope = requiredScope(c.auth, c.method);
      const credential = scope && c.auth.kind === "client" ? `\`${scope}\`` : credentialOf[c.auth.kind];
      return `| ${c.method} | \`${c.path}\` | ${credential} | ${cell(c.summary)} |`;
    });
  return [
    "| Method | Path | Credential | What it does |",
    "|---|---|---|---|",
    "| POST | `/auth/connect/token` | client id and secret (or a user's email and password) | Exchange credentials for a bearer token |",
    ...rows,
  ].join("\n");
}

function scopesTable(): string {
  return [
    "| Resource | Scopes | Covers |",
    "|---|---|---|",
    ...scopeResources.map(
      (r) =>
        `| \`${r}\` | \`provision.${r}.read\`, \`.create\`, \`.update\`, \`.delete\` | ${cell(scopeDescriptions[r])} |`,
    ),
    `| integrator | \`${INTEGRATOR_SCOPE}\` | The webhook integrator surface |`,
  ].join("\n");
}

function errorsTable(): string {
  const rows = Object.entries(errorCatalog)
    .sort(([, a], [, b]) => a.code - b.code)
    .map(([codeName, e]) => `| ${e.code} | \`${codeName}\` | ${e.status} | ${cell(e.title)} |`);
  return ["| code | codeName | HTTP | Title |", "|---|---|---|---|", ...rows].join("\n");
}

function eventTypesTable(): string {
  return [
    "| Event type | Entity kind | eventversion | Emitted when | Fields a filter can name |",
    "|---|---|---|---|---|",
    ...eventTypes.map(
      (t) =>
        `| \`${t.type}\` | ${t.entityKind} | ${t.eventVersion} | ${cell(t.emittedWhen)} | ${
          t.fieldPaths.length ? t.fieldPaths.map((p) => `\`${p}\``).join(", ") : "–"
        } |`,
    ),
  ].join("\n");
}

export const referenceTables: Record<string, () => string> = {
  endpoints: endpointsTable,
  scopes: scopesTable,
  errors: errorsTable,
  "event-types": eventTypesTable,
};

/** Replaces each `<!-- generated:NAME -->` … `<!-- /generated:NAME -->` block with the current table. */
export function withReferenceTables(markdown: string): string {
  let out = markdown;
  for (const [name, table] of Object.entries(referenceTables)) {
    const pattern = new RegExp(`(<!-- generated:${name} -->)[\\s\\S]*?(<!-- /generated:${name} -->)`);
    if (!pattern.test(out)) throw new Error(`docs/api.md has no generated:${name} block`);
    out = out.replace(pattern, (_m, open: string, close: string) => `${open}\n${table()}\n${close}`);
  }
  return out;
}
