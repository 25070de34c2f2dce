import { systemContext } from "../context.ts";
import { joinable } from "../../db/tenant-db.ts";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "../../db/client.ts";
import { AppError } from "../../core/errors.ts";
import { createClient } from "./oauth-clients.ts";
import { createUser } from "./users.ts";
import { createTenantSigningKey, generateTenantSigningKey } from "./tenant-signing-keys.ts";
import { INTEGRATOR_SCOPE } from "./scopes.ts";

export const ZTenantCreateRequest = z.object({
  name: z.string().trim().min(1).max(200),
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, "slug: lowercase letters, digits and hyphens")
    .optional(),
  adminEmail: z.string().trim().email().optional(),
  adminPassword: z.string().min(10).optional(),
});
export type TTenantCreateRequest = z.input<typeof ZTenantCreateRequest>;

export function slugify(name: string): string {
  return (
    name
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40) || "tenant"
  );
}

async function freeSlug(db: Db, base: string): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const slug = attempt === 0 ? base : `${base}-${randomBytes(3).toString("hex")}`;
    if (!(await db.tenant.findUnique({ where: { slug } }))) return slug;
  }
  throw new AppError("license.conflict", "Could not find a free tenant slug.");
}

/**
 * Creates a tenant with everything it needs to start: its license signing key, an admin OAuth
 * client (every provision scope), an integrator client (webhook subscriptions) and a staff user.
 * Secrets and the password are returned once.
 */
export async function createTenant(db: Db, input: TTenantCreateRequest) {
  const parsed = ZTenantCreateRequest.parse(input);
  const slug = parsed.slug ?? (await freeSlug(db, slugify(parsed.name)));
  if (parsed.slug && (await db.tenant.findUnique({ where: { slug } })))
    throw new AppError("license.conflict", `Tenant slug ${slug} is taken.`);
  const material = await generateTenantSigningKey();
  const tenant = await db.$transaction(async (rawTx) => {
    const tx = joinable(rawTx);
    const created = await tx.tenant.create({ data: { name: parsed.name, slug } });
    await createTenantSigningKey(tx, created.id, material);
    return created;
  });
  const admin = await createClient(systemContext(db, tenant.id, "tenant-create"), {
    name: "Admin",
    kind: "admin",
    scopes: ["provision.*"],
  });
  const integrator = await createClient(systemContext(db, tenant.id, "tenant-create"), {
    name: "Integrator",
    kind: "integrator",
    scopes: [INTEGRATOR_SCOPE],
  });
  const adminEmail = parsed.adminEmail ?? `admin@${slug}.example.com`;
  const adminPassword = parsed.adminPassword ?? randomBytes(12).toString("base64url");
  await createUser(systemContext(db, tenant.id, "tenant-create"), {
    email: adminEmail,
    password: adminPassword,
    kind: "staff",
    name: "Administrator",
    staffRole: "owner",
  });
  return {
    tenantId: tenant.id,
    tenantSlug: tenant.slug,
    clientId: admin.client.clientId,
    clientSecret: admin.clientSecret,
    integratorClientId: integrator.client.clientId,
    integratorClientSecret: integrator.clientSecret,
    adminEmail,
    adminPassword,
  };
}
