import { z } from "zod";
import { hash } from "@node-rs/argon2";
import type { Db } from "../../../db/client.ts";
import type { DomainContext } from "../../context.ts";
import { inTransaction, type TenantTx } from "../../../db/tenant-db.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { listPage } from "../../../db/list-page.ts";
import type { SieveWhitelist } from "../../../db/sieve-where.ts";
import { now } from "../../../clock.ts";
import { randomToken } from "../../../crypto/tokens.ts";
import { emailKey } from "../users.ts";
import { isStaffRole, staffRoles, type StaffRole } from "./staff-roles.ts";
import { revokeClientsBeyondCreator } from "../creator-clients.ts";

import { ZStaffInviteRequest, type TStaffUserResponse } from "./staff-users.schemas.ts";

export {
  ZStaffInviteRequest,
  ZStaffRoleChange,
  ZStaffUserId,
  ZStaffUserResponse,
  type TStaffUserResponse,
} from "./staff-users.schemas.ts";

type StaffRow = {
  id: string;
  email: string;
  name: string;
  staffRole: string | null;
  disabledAt: Date | null;
  createdAt: Date;
};
const staffSelect = { id: true, email: true, name: true, staffRole: true, disabledAt: true, createdAt: true };

function toStaffUserResponse(row: StaffRow): TStaffUserResponse {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    staffRole: isStaffRole(row.staffRole) ? row.staffRole : null,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The signed-in user as the database holds it now, or null once disabled (or gone): read on every
 * UI request (server/auth/session.ts), by primary key.
 */
export async function signedInUser(db: Db, tenantId: string, userId: string) {
  const user = await db.user.findFirst({
    where: { id: userId, tenantId },
    select: {
      kind: true,
      name: true,
      staffRole: true,
      disabledAt: true,
      sessionsValidFrom: true,
      keptSessionId: true,
    },
  });
  if (!user || user.disabledAt) return null;
  return {
    kind: user.kind,
    name: user.name,
    staffRole: isStaffRole(user.staffRole) ? user.staffRole : null,
    sessionsValidFrom: user.sessionsValidFrom,
    keptSessionId: user.keptSessionId,
  };
}

export const staffUserSieve: SieveWhitelist = {
  email: { type: "string" },
  name: { type: "string" },
  staffRole: { type: "enum", values: staffRoles },
  createdAt: { type: "date" },
};

export async function listStaffUsers(ctx: DomainContext, query: TListQuery) {
  return listPage(
    query,
    {
      sieve: staffUserSieve,
      where: { kind: "staff" },
      defaultOrder: [{ email: "asc" }],
      findMany: (args) => ctx.db.user.findMany({ ...args, select: staffSelect }),
      count: (args) => ctx.db.user.count(args),
    },
    (rows) => rows.map(toStaffUserResponse),
  );
}

/** The acting staff user's role; the CLI (a system actor) acts as an owner. */
function actingRole(ctx: DomainContext): StaffRole | null {
  if (ctx.actor.kind === "system") return "owner";
  if (ctx.actor.kind === "user") return ctx.actor.staffRole ?? null;
  return null;
}

/** docs/security.md "Staff roles": only an owner grants, changes or disables an owner. */
function assertMayManage(ctx: DomainContext, targetRole: StaffRole | null, newRole?: StaffRole) {
  const role = actingRole(ctx);
  if (role !== "owner" && (targetRole === "owner" || newRole === "owner"))
    throw new AppError("staff.permission_denied", "Only an owner can grant, change or disable an owner.");
}

/**
 * Role changes and disables of one tenant are serialised (a transaction-scoped advisory lock), so
 * two admins cannot demote the last two owners at once; then the user is read.
 */
async function lockStaffUser(tx: TenantTx, tenantId: string, userId: string) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`staff-roles:${tenantId}`}))`;
  const user = await tx.user.findFirst({ where: { id: userId, kind: "staff" }, select: staffSelect });
  if (!user) throw notFound("Staff user");
  return user;
}

async function assertAnotherOwnerRemains(tx: TenantTx, userId: string) {
  const owners = await tx.user.count({
    where: { kind: "staff", staffRole: "owner", disabledAt: null, id: { not: userId } },
  });
  if (owners === 0)
    throw new AppError("staff.last_owner", "The tenant's last active owner cannot be demoted or disabled.");
}

/**
 * Invites a staff user: the account exists at once with a one-time password shown once to the
 * inviter (there is no mail service; the inviter passes it on, and the user signs in with it).
 */
export async function inviteStaffUser(ctx: DomainContext, input: z.input<typeof ZStaffInviteRequest>) {
  const parsed = ZStaffInviteRequest.parse(input);
  assertMayManage(ctx, null, parsed.staffRole);
  const existing = await ctx.db.user.findFirst({ where: { emailKey: emailKey(parsed.email) } });
  if (existing)
    throw new AppError(
      "license.conflict",
      `A user with email ${parsed.email} already exists in this tenant.`,
    );
  const password = randomToken("pw", 12);
  const row = await ctx.db.user.create({
    data: {
      tenantId: ctx.tenantId,
      kind: "staff",
      email: parsed.email,
      emailKey: emailKey(parsed.email),
      name: parsed.name || parsed.email.split("@")[0],
      passwordHash: await hash(password),
      roles: [],
      staffRole: parsed.staffRole,
    },
    select: staffSelect,
  });
  return { user: toStaffUserResponse(row), password };
}

export async function changeStaffRole(ctx: DomainContext, userId: string, staffRole: StaffRole) {
  return inTransaction(ctx.db, async (tx) => {
    const user = await lockStaffUser(tx, ctx.tenantId, userId);
    assertMayManage(ctx, isStaffRole(user.staffRole) ? user.staffRole : null, staffRole);
    if (user.staffRole === "owner" && staffRole !== "owner") await assertAnotherOwnerRemains(tx, userId);
    const row = await tx.user.update({ where: { id: userId }, data: { staffRole }, select: staffSelect });
    await revokeClientsBeyondCreator({ ...ctx, db: tx }, userId, staffRole);
    return toStaffUserResponse(row);
  });
}

/**
 * Disabling ends the user's UI session at their next request (currentSession reads the row) and
 * revokes the API clients they registered (creator-clients.ts); a role change revokes those the
 * new role could not register.
 */
export async function setStaffUserDisabled(ctx: DomainContext, userId: string, disabled: boolean) {
  if (disabled && ctx.actor.kind === "user" && ctx.actor.id === userId)
    throw new AppError("staff.permission_denied", "You cannot disable yourself.");
  return inTransaction(ctx.db, async (tx) => {
    const user = await lockStaffUser(tx, ctx.tenantId, userId);
    assertMayManage(ctx, isStaffRole(user.staffRole) ? user.staffRole : null);
    if (disabled && user.staffRole === "owner" && !user.disabledAt)
      await assertAnotherOwnerRemains(tx, userId);
    if (!!user.disabledAt === disabled) return toStaffUserResponse(user);
    const row = await tx.user.update({
      where: { id: userId },
      data: { disabledAt: disabled ? now() : null },
      select: staffSelect,
    });
    if (disabled) await revokeClientsBeyondCreator({ ...ctx, db: tx }, userId, null);
    return toStaffUserResponse(row);
  });
}

/** The CLI names users by email. */
export async function staffUserIdByEmail(ctx: DomainContext, email: string): Promise<string> {
  const user = await ctx.db.user.findFirst({
    where: { emailKey: emailKey(email), kind: "staff" },
    select: { id: true },
  });
  if (!user) throw notFound(`Staff user ${email}`);
  return user.id;
}
