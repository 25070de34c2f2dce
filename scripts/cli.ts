/**
 * Operator CLI: `npm run cli -- <command>`. Commands:
 *   tenant create --name NAME [--slug SLUG] [--admin-email E] [--admin-password P] [--json]
 *   tenant list [--json]
 *   client create --tenant ID --scopes "a b" [--name N] [--kind admin|operational|integrator] [--json]
 *   client list --tenant ID [--json]
 *   client revoke --tenant ID --client-id CLIENT_ID
 *   user create --tenant ID --email E --password P [--kind staff|consumer] [--role ROLE] [--name N] [--json]
 *   user list --tenant ID [--json]                         (staff users and their roles)
 *   user invite --tenant ID --email E --role ROLE [--name N] [--json]   (prints a one-time password)
 *   user set-role --tenant ID --email E --role ROLE [--json]
 *   user disable|enable --tenant ID --email E [--json]   (a disabled user's session ends at once)
 *   Roles: owner, admin, catalog-editor, support, read-only (docs/security.md "Staff roles").
 * Every change is written to the tenant's audit trail as the CLI (actor `system`, source `cli`).
 *   key rotate --tenant ID [--json]   (new license signing key; the old one stays in the JWKS a week)
 *   rate-limit list --tenant ID [--json]
 *   rate-limit set --tenant ID --name LIMIT --limit N --window SECONDS [--json]
 *   rate-limit reset --tenant ID --name LIMIT   (the service-wide value applies again)
 *   scale-seed --tenant ID --entitlements N --sessions N --usage-records N [--customers N]
 *     (a production-sized data set in set-based SQL, rows per second per table: scripts/seed/scale.ts;
 *     not audited: it is test data, written as the data set's own history)
 */
import { systemContext } from "../server/domain/context.ts";
import { parseArgs } from "node:util";
import { closeDb, createDb } from "../server/db/client.ts";
import { createTenant } from "../server/domain/cross-tenant.ts";
import {
  createClient,
  ensureClientKind,
  listClients,
  revokeClient,
} from "../server/domain/identity/oauth-clients.ts";
import { createUser, userKinds, type UserKind } from "../server/domain/identity/users.ts";
import { AppError } from "../server/core/errors.ts";
import { rotateTenantSigningKey } from "../server/domain/identity/rotate-tenant-signing-key.ts";
import { resolveRuntimeEnv } from "./lib/runtime-env.ts";
import { scaleSeed } from "./seed/scale.ts";
import { userInfo } from "node:os";
import { runAudited } from "../server/db/audit-context.ts";
import { now } from "../server/clock.ts";
import {
  isStaffRole,
  staffRoles,
  type StaffRole,
} from "../server/domain/identity/staff-roles/staff-roles.ts";
import {
  changeStaffRole,
  inviteStaffUser,
  listStaffUsers,
  setStaffUserDisabled,
  staffUserIdByEmail,
} from "../server/domain/identity/staff-roles/staff-users.ts";
import {
  listTenantRateLimits,
  resetTenantRateLimit,
  setTenantRateLimit,
} from "../server/domain/rate-limits/rate-limit-overrides.ts";

/** The command line; an unknown option is a usage error, not a stack trace. */
function commandLine() {
  try {
    return parseArgs({
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
        role: { type: "string" },
        limit: { type: "string" },
        entitlements: { type: "string" },
        sessions: { type: "string" },
        "usage-records": { type: "string" },
        customers: { type: "string" },
        window: { type: "string" },
        json: { type: "boolean", default: false },
      },
    });
  } catch (error) {
    process.stderr.write(
      `${(error as Error).message}\nThe commands are listed at the top of scripts/cli.ts and in the README.\n`,
    );
    process.exit(2);
  }
}
const { positionals, values } = commandLine();

function required(name: keyof typeof values): string {
  const value = values[name];
  if (typeof value !== "string" || !value)
    throw new AppError("license.validation_error", `--${name} is required.`);
  return value;
}

function role(): StaffRole {
  const value = required("role");
  if (!isStaffRole(value))
    throw new AppError("license.validation_error", `--role is one of ${staffRoles.join(", ")}.`);
  return value;
}

/** Who the audit trail names for a CLI change: the operating-system account that ran it. */
function cliOperator(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return "cli";
  }
}

function print(human: string, json: unknown) {
  process.stdout.write(values.json ? `${JSON.stringify(json)}\n` : `${human}\n`);
}

async function main() {
  const runtime = await resolveRuntimeEnv({ log: (line) => process.stderr.write(`${line}\n`) });
  process.env.APP_SECRET = runtime.env.APP_SECRET;
  if (positionals[0] === "scale-seed") {
    try {
      await runScaleSeed(runtime.env.DATABASE_URL!);
    } finally {
      await runtime.stop();
    }
    return;
  }
  const db = createDb(runtime.env.DATABASE_URL!, { max: 2 });
  try {
    const [area, action] = positionals;
    const operation = `${area} ${action}`;
    await runAudited(
      { actorKind: "system", actorId: cliOperator(), source: "cli", operation, at: now().toISOString() },
      () => run(db, operation),
    );
  } finally {
    await closeDb(db);
    await runtime.stop();
  }
}

function count(name: "entitlements" | "sessions" | "usage-records" | "customers", fallback?: number): number {
  const value = values[name] ?? (fallback === undefined ? required(name) : String(fallback));
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new AppError("license.validation_error", `--${name} is a whole number (0 or more).`);
  return n;
}

async function runScaleSeed(databaseUrl: string) {
  const entitlements = count("entitlements");
  const size = {
    entitlements,
    sessions: count("sessions"),
    usageRecords: count("usage-records"),
    customers: count("customers", Math.max(1, Math.floor(entitlements / 5))),
  };
  if (size.entitlements < 1) throw new AppError("license.validation_error", "--entitlements is at least 1.");
  const started = performance.now();
  const steps = await scaleSeed(databaseUrl, required("tenant"), size);
  const seconds = (performance.now() - started) / 1000;
  const rows = steps.reduce((sum, s) => sum + s.rows, 0);
  print(
    `${rows.toLocaleString("en")} rows in ${seconds.toFixed(1)} s (${Math.round(rows / seconds).toLocaleString("en")} rows/s)`,
    { steps, rows, seconds },
  );
}

async function run(db: ReturnType<typeof createDb>, operation: string) {
  {
    const cli = () => systemContext(db, required("tenant"), "cli");
    switch (operation) {
      case "tenant create": {
        const t = await createTenant(db, {
          name: required("name"),
          slug: values.slug,
          adminEmail: values["admin-email"],
          adminPassword: values["admin-password"],
        });
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
      case "rate-limit list": {
        const limits = await listTenantRateLimits(systemContext(db, required("tenant"), "cli"));
        print(
          limits
            .map(
              (l) =>
                `${l.name}  ${l.limit} per ${l.windowSeconds} s${l.overridden ? "  (tenant's own)" : ""}`,
            )
            .join("\n"),
          limits,
        );
        break;
      }
      case "rate-limit set": {
        const set = await setTenantRateLimit(systemContext(db, required("tenant"), "cli"), {
          name: required("name"),
          limit: Number(required("limit")),
          windowSeconds: Number(required("window")),
        });
        print(`${set.name}  ${set.limit} per ${set.windowSeconds} s`, set);
        break;
      }
      case "rate-limit reset": {
        await resetTenantRateLimit(systemContext(db, required("tenant"), "cli"), required("name"));
        print(`${values.name}: the service-wide value applies`, { name: values.name });
        break;
      }
      case "tenant list": {
        const tenants = await db.tenant.findMany({
          orderBy: { createdAt: "asc" },
          select: { id: true, name: true, slug: true, createdAt: true },
        });
        print(tenants.map((t) => `${t.id}  ${t.slug}  ${t.name}`).join("\n") || "No tenants.", tenants);
        break;
      }
      case "client create": {
        const { client, clientSecret } = await createClient(systemContext(db, required("tenant"), "cli"), {
          name: values.name ?? "API client",
          kind: ensureClientKind(values.kind ?? "admin"),
          scopes: required("scopes").split(/\s+/).filter(Boolean),
        });
        print(
          `Client ${client.clientId}\nSecret ${clientSecret} (shown once)\nScopes ${client.scopes.join(" ")}`,
          { ...client, clientSecret },
        );
        break;
      }
      case "client list": {
        const clients = await listClients(systemContext(db, required("tenant"), "cli"));
        print(
          clients
            .map(
              (c) =>
                `${c.clientId}  ${c.kind}  ${c.revokedAt ? "revoked" : "active"}  ${c.name}  ${c.scopes.join(" ")}`,
            )
            .join("\n") || "No clients.",
          clients,
        );
        break;
      }
      case "client revoke": {
        const client = await revokeClient(
          systemContext(db, required("tenant"), "cli"),
          required("client-id"),
        );
        print(`Client ${client.clientId} revoked at ${client.revokedAt}`, client);
        break;
      }
      case "user create": {
        const kind = (values.kind ?? "staff") as UserKind;
        if (!userKinds.includes(kind))
          throw new AppError("license.validation_error", `--kind is one of ${userKinds.join(", ")}.`);
        const user = await createUser(cli(), {
          email: required("email"),
          password: required("password"),
          kind,
          name: values.name,
          staffRole: values.role === undefined ? undefined : role(),
        });
        print(
          `User ${user.id} (${user.kind}${user.staffRole ? `, ${user.staffRole}` : ""}) ${user.email}`,
          user,
        );
        break;
      }
      case "user list": {
        const page = await listStaffUsers(cli(), { pageNumber: 1, pageSize: 100 });
        print(
          page.items
            .map(
              (u) => `${u.email}  ${u.staffRole ?? "-"}  ${u.disabledAt ? "disabled" : "active"}  ${u.name}`,
            )
            .join("\n") || "No staff users.",
          page.items,
        );
        break;
      }
      case "user invite": {
        const { user, password } = await inviteStaffUser(cli(), {
          email: required("email"),
          name: values.name,
          staffRole: role(),
        });
        print(`User ${user.email} (${user.staffRole}) invited; one-time password ${password} (shown once)`, {
          ...user,
          password,
        });
        break;
      }
      case "user set-role": {
        const ctx = cli();
        const user = await changeStaffRole(ctx, await staffUserIdByEmail(ctx, required("email")), role());
        print(`User ${user.email} is now ${user.staffRole}`, user);
        break;
      }
      case "user disable":
      case "user enable": {
        const ctx = cli();
        const user = await setStaffUserDisabled(
          ctx,
          await staffUserIdByEmail(ctx, required("email")),
          operation === "user disable",
        );
        print(`User ${user.email} ${user.disabledAt ? "disabled" : "enabled"}`, user);
        break;
      }
      case "key rotate": {
        const key = await rotateTenantSigningKey(db, required("tenant"));
        print(`New signing key ${key.kid}; the replaced key stays published in the JWKS for a week.`, key);
        break;
      }
      default:
        throw new AppError(
          "license.validation_error",
          `Unknown command "${positionals.join(" ")}". See the comment at the top of scripts/cli.ts or the README.`,
        );
    }
  }
}

main().catch((error) => {
  process.stderr.write(
    `${error instanceof AppError ? `${error.codeName}: ${error.message}` : (error as Error).stack}\n`,
  );
  process.exit(1);
});
