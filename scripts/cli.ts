/**
 * Operator CLI: `npm run cli -- <command>`. Commands:
 *   tenant create --name NAME [--slug SLUG] [--admin-email E] [--admin-password P] [--json]
 *   tenant list [--json]
 *   client create --tenant ID --scopes "a b" [--name N] [--kind admin|operational|integrator] [--json]
 *   client list --tenant ID [--json]
 *   client revoke --tenant ID --client-id CLIENT_ID
 *   user create --tenant ID --email E --password P [--kind staff|consumer] [--name N] [--json]
 *   key rotate --tenant ID [--json]   (new license signing key; the old one stays in the JWKS a week)
 */
import { parseArgs } from "node:util";
import { createDb } from "../server/db/client.ts";
import { createTenant } from "../server/domain/identity/create-tenant.ts";
import { createClient, ensureClientKind, listClients, revokeClient } from "../server/domain/identity/oauth-clients.ts";
import { createUser, userKinds, type UserKind } from "../server/domain/identity/users.ts";
import { AppError } from "../server/http/errors.ts";
import { rotateTenantSigningKey } from "../server/domain/identity/rotate-tenant-signing-key.ts";
import { resolveRuntimeEnv } from "./lib/runtime-env.ts";

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    name: { type: "string" },
    slug: { type: "string" },
    tenant: { type: "string" },
    scopes: { type: "string" },
    kind: { type: "string" },
    "client-id": { type: "string" },
    email: { type: "string" },
    password: { type: "string" },
    "admin-email": { type: "string" },
    "admin-password": { type: "string" },
    json: { type: "boolean", default: false },
  },
});

function required(name: keyof typeof values): string {
  const value = values[name];
  if (typeof value !== "string" || !value) throw new AppError("license.validation_error", `--${name} is required.`);
  return value;
}

function print(human: string, json: unknown) {
  process.stdout.write(values.json ? `${JSON.stringify(json)}\n` : `${human}\n`);
}

async function main() {
  const runtime = await resolveRuntimeEnv({ log: (line) => process.stderr.write(`${line}\n`) });
  process.env.APP_SECRET = runtime.env.APP_SECRET;
  const db = createDb(runtime.env.DATABASE_URL!, { max: 2 });
  try {
    const [area, action] = positionals;
    switch (`${area} ${action}`) {
      case "tenant create": {
        const t = await createTenant(db, { name: required("name"), slug: values.slug, adminEmail: values["admin-email"], adminPassword: values["admin-password"] });
        const out = {
          tenantId: t.tenantId,
          clientId: t.clientId,
          clientSecret: t.clientSecret,
          integratorClientId: t.integratorClientId,
          integratorClientSecret: t.integratorClientSecret,
          adminEmail: t.adminEmail,
          adminPassword: t.adminPassword,
        };
        print(
          [
            `Tenant ${t.tenantId} (organisation id: ${t.tenantSlug})`,
            `Admin client:      ${t.clientId} / ${t.clientSecret}`,
            `Integrator client: ${t.integratorClientId} / ${t.integratorClientSecret}`,
            `Back office:       ${t.adminEmail} / ${t.adminPassword}`,
            "Secrets and the password are shown once.",
          ].join("\n"),
          out,
        );
        break;
      }
      case "tenant list": {
        const tenants = await db.tenant.findMany({ orderBy: { createdAt: "asc" }, select: { id: true, name: true, slug: true, createdAt: true } });
        print(tenants.map((t) => `${t.id}  ${t.slug}  ${t.name}`).join("\n") || "No tenants.", tenants);
        break;
      }
      case "client create": {
        const { client, clientSecret } = await createClient(db, required("tenant"), {
          name: values.name ?? "API client",
          kind: ensureClientKind(values.kind ?? "admin"),
          scopes: required("scopes").split(/\s+/).filter(Boolean),
        });
        print(`Client ${client.clientId}\nSecret ${clientSecret} (shown once)\nScopes ${client.scopes.join(" ")}`, { ...client, clientSecret });
        break;
      }
      case "client list": {
        const clients = await listClients(db, required("tenant"));
        print(clients.map((c) => `${c.clientId}  ${c.kind}  ${c.revokedAt ? "revoked" : "active"}  ${c.name}  ${c.scopes.join(" ")}`).join("\n") || "No clients.", clients);
        break;
      }
      case "client revoke": {
        const client = await revokeClient(db, required("tenant"), required("client-id"));
        print(`Client ${client.clientId} revoked at ${client.revokedAt}`, client);
        break;
      }
      case "user create": {
        const kind = (values.kind ?? "staff") as UserKind;
        if (!userKinds.includes(kind)) throw new AppError("license.validation_error", `--kind is one of ${userKinds.join(", ")}.`);
        const user = await createUser(db, required("tenant"), { email: required("email"), password: required("password"), kind, name: values.name });
        print(`User ${user.id} (${user.kind}) ${user.email}`, user);
        break;
      }
      case "key rotate": {
        const key = await rotateTenantSigningKey(db, required("tenant"));
        print(`New signing key ${key.kid}; the replaced key stays published in the JWKS for a week.`, key);
        break;
      }
      default:
        throw new AppError("license.validation_error", `Unknown command "${positionals.join(" ")}". See the comment at the top of scripts/cli.ts or the README.`);
    }
  } finally {
    await db.$disconnect();
    await runtime.stop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof AppError ? `${error.codeName}: ${error.message}` : (error as Error).stack}\n`);
  process.exit(1);
});
