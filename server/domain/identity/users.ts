import type { DomainContext } from "../context.ts";
import { hash, verify } from "@node-rs/argon2";
import { z } from "zod";
import type { Db } from "../../db/client.ts";
import { AppError, validationError } from "../../core/errors.ts";
import { staffRoles } from "./staff-roles/staff-roles.ts";
import { isBlockedLogin } from "./blocked-login.ts";

/** Staff use the back office; consumers are the vendor's customers' end users (portal, consumer/me). */
export const userKinds = ["staff", "consumer"] as const;
export type UserKind = (typeof userKinds)[number];

export const ZUserCreateRequest = z.object({
  email: z.string().trim().email().max(320),
  name: z.string().trim().max(200).optional(),
  password: z.string().min(10, "Passwords have at least 10 characters.").max(200),
  kind: z.enum(userKinds),
  roles: z.array(z.string().trim().min(1)).default([]),
  /** Staff only (default `admin`); a tenant's first user is its owner. */
  staffRole: z.enum(staffRoles).optional(),
});
export type TUserCreateRequest = z.input<typeof ZUserCreateRequest>;

export const emailKey = (email: string) => email.trim().toLowerCase();

export async function createUser(ctx: DomainContext, input: TUserCreateRequest) {
  const parsed = ZUserCreateRequest.safeParse(input);
  if (!parsed.success) throw validationError(parsed.error.issues.map((i) => i.message).join(" "));
  const { email, password, kind, roles } = parsed.data;
  const existing = await ctx.db.user.findFirst({ where: { emailKey: emailKey(email) } });
  if (existing)
    throw new AppError("license.conflict", `A user with email ${email} already exists in this tenant.`);
  const defaultRoles = kind === "staff" ? ["admin"] : ["license-consumer"];
  return ctx.db.user.create({
    data: {
      tenantId: ctx.tenantId,
      kind,
      email,
      emailKey: emailKey(email),
      name: parsed.data.name ?? email.split("@")[0],
      passwordHash: await hash(password),
      roles: roles.length ? roles : defaultRoles,
      staffRole: kind === "staff" ? (parsed.data.staffRole ?? "admin") : null,
    },
    select: { id: true, tenantId: true, kind: true, email: true, name: true, roles: true, staffRole: true },
  });
}

export type SignInResult =
  | {
      ok: true;
      user: {
        id: string;
        tenantId: string;
        kind: UserKind;
        email: string;
        name: string;
        roles: string[];
        tenantName: string;
        tenantSlug: string;
      };
    }
  | { ok: false; reason: "invalid" | "choose-tenant" | "blocked" };

/**
 * Password sign-in for one kind of user. Emails are unique per tenant, so when the same email
 * has accounts with several vendors the caller must name the tenant (its slug). A consumer login
 * whose customer records are all blocked is refused (blocked-login.ts).
 */
export async function authenticateUser(
  db: Db,
  input: { email: string; password: string; kind: UserKind; tenant?: string | null },
): Promise<SignInResult> {
  const candidates = await db.user.findMany({
    where: {
      emailKey: emailKey(input.email),
      kind: input.kind,
      disabledAt: null,
      ...(input.tenant ? { tenant: { slug: input.tenant.trim().toLowerCase() } } : {}),
    },
    include: { tenant: { select: { name: true, slug: true } } },
    take: 5,
  });
  if (candidates.length > 1) return { ok: false, reason: "choose-tenant" };
  const user = candidates[0];
  if (!user?.passwordHash || !(await verify(user.passwordHash, input.password)))
    return { ok: false, reason: "invalid" };
  // Only after the password is verified: the answer says nothing to someone guessing.
  if (user.kind === "consumer" && (await isBlockedLogin(db, user.tenantId, user.id)))
    return { ok: false, reason: "blocked" };
  return {
    ok: true,
    user: {
      id: user.id,
      tenantId: user.tenantId,
      kind: user.kind as UserKind,
      email: user.email,
      name: user.name,
      roles: user.roles,
      tenantName: user.tenant.name,
      tenantSlug: user.tenant.slug,
    },
  };
}
