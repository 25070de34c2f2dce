import type { DomainContext } from "../../context.ts";
import { inTransaction, type TenantDbOrTx, type TenantTx } from "../../../db/tenant-db.ts";
import type { Prisma } from "../../../db/generated/client.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { listPage } from "../../../db/list-page.ts";
import type { SieveWhitelist } from "../../../db/sieve-where.ts";
import { now } from "../../../clock.ts";
import { lockEditableEntitlement } from "../entitlement/entitlement-lock.ts";
import {
  ZAddOnGrantResponse,
  type TAddOnGrantCreateRequest,
  type TAddOnGrantResponse,
} from "./add-on-grant.schemas.ts";

const grantInclude = {
  addOn: { select: { code: true, name: true, suiteId: true, suite: { select: { name: true } } } },
} satisfies Prisma.AddOnGrantInclude;
type GrantRow = Prisma.AddOnGrantGetPayload<{ include: typeof grantInclude }>;

export const addOnGrantSieve: SieveWhitelist = {
  id: { type: "uuid", sortable: false },
  addOnId: { type: "uuid", sortable: false },
  isRevoked: { type: "boolean" },
  startsAt: { type: "date" },
  expiresAt: { type: "date", nullable: true },
  reference: { type: "string", nullable: true },
  campaignId: { type: "uuid", nullable: true, sortable: false },
  createdAt: { type: "date" },
};

/** docs/api.md: isActive = inside the start/expiry window and not revoked. */
export const isGrantActive = (
  g: { startsAt: Date; expiresAt: Date | null; isRevoked: boolean },
  at: Date = now(),
) => !g.isRevoked && g.startsAt <= at && (g.expiresAt === null || g.expiresAt > at);

function toGrantResponse(g: GrantRow, at: Date): TAddOnGrantResponse {
  return ZAddOnGrantResponse.parse({
    id: g.id,
    addOnId: g.addOnId,
    addOnCode: g.addOn.code,
    addOnName: g.addOn.name,
    suiteId: g.addOn.suiteId,
    suiteName: g.addOn.suite.name,
    startsAt: g.startsAt.toISOString(),
    expiresAt: g.expiresAt?.toISOString() ?? null,
    isRevoked: g.isRevoked,
    revokedAt: g.revokedAt?.toISOString() ?? null,
    reference: g.reference,
    campaignId: g.campaignId,
    isActive: isGrantActive(g, at),
  });
}

async function readGrant(db: TenantDbOrTx, id: string) {
  return db.addOnGrant.findUniqueOrThrow({ where: { id }, include: grantInclude });
}

type GrantOwner = { kind: "Entitlement" | "Offer"; id: string; planSetId: string | null };

/** The grant rules shared by entitlements and offers; writes the grant (and the attribution touch). */
async function writeGrant(
  tx: TenantTx,
  tenantId: string,
  owner: GrantOwner,
  input: TAddOnGrantCreateRequest,
) {
  const addOn = await tx.addOn.findUnique({
    where: { id: input.addOnId },
    select: { id: true, suiteId: true, status: true, code: true },
  });
  if (!addOn) throw notFound(`Add-on ${input.addOnId}`);
  if (addOn.status === "Archived")
    throw new AppError("add_on_grant.add_on_archived", `Add-on ${addOn.code} is archived.`);
  if (!owner.planSetId)
    throw new AppError(
      "entitlement.no_plan",
      `The ${owner.kind.toLowerCase()} has no plan; assign one before granting add-ons.`,
    );
  const planSet = await tx.usagePlanSet.findUnique({
    where: { id: owner.planSetId },
    select: { suiteId: true },
  });
  if (planSet?.suiteId !== addOn.suiteId) {
    throw new AppError(
      "add_on_grant.suite_mismatch",
      `Add-on ${addOn.code} belongs to another suite than the ${owner.kind.toLowerCase()}'s plan.`,
    );
  }
  if (
    input.campaignId &&
    !(await tx.ratingCampaign.findUnique({ where: { id: input.campaignId }, select: { id: true } }))
  ) {
    throw notFound(`Rating campaign ${input.campaignId}`);
  }
  const grant = await tx.addOnGrant.create({
    data: {
      tenantId,
      addOnId: addOn.id,
      entitlementId: owner.kind === "Entitlement" ? owner.id : null,
      offerId: owner.kind === "Offer" ? owner.id : null,
      startsAt: input.startsAtUtc ? new Date(input.startsAtUtc) : now(),
      expiresAt: input.expiresAtUtc ? new Date(input.expiresAtUtc) : null,
      reference: input.reference,
      campaignId: input.campaignId,
    },
  });
  if (input.campaignId) {
    await tx.attributionTouch.create({
      data: {
        tenantId,
        campaignId: input.campaignId,
        kind: "AddOnGrant",
        entitlementId: owner.kind === "Entitlement" ? owner.id : null,
        addOnGrantId: grant.id,
      },
    });
  }
  return toGrantResponse(await readGrant(tx, grant.id), now());
}

/**
 * POST /admin/entitlements/{id}/add-on-grants: the add-on's suite must be the suite of the
 * entitlement's plan (an entitlement without a plan cannot take add-ons); archived add-ons are
 * refused. A campaignId records an attribution touch for the campaign.
 */
export async function grantAddOn(ctx: DomainContext, entitlementId: string, input: TAddOnGrantCreateRequest) {
  return inTransaction(ctx.db, async (tx) => {
    const entitlement = await lockEditableEntitlement(tx, ctx.tenantId, entitlementId);
    return writeGrant(
      tx,
      ctx.tenantId,
      { kind: "Entitlement", id: entitlement.id, planSetId: entitlement.planSetId },
      input,
    );
  });
}

/** POST /admin/offers/{id}/add-on-grants: a grant every entitlement made from the offer receives (same rules). */
export async function grantOfferAddOn(ctx: DomainContext, offerId: string, input: TAddOnGrantCreateRequest) {
  return inTransaction(ctx.db, async (tx) => {
    const [offer] = await tx.$queryRaw<{ status: string; planSetId: string | null }[]>`
      SELECT status, "planSetId" FROM "Offer" WHERE "tenantId" = ${ctx.tenantId}::uuid AND id = ${offerId}::uuid FOR UPDATE`;
    if (!offer) throw notFound("Offer");
    if (offer.status === "Archived") throw new AppError("offer.archived", "An archived offer is read-only.");
    return writeGrant(tx, ctx.tenantId, { kind: "Offer", id: offerId, planSetId: offer.planSetId }, input);
  });
}

export async function listOfferAddOnGrants(ctx: DomainContext, offerId: string, query: TListQuery) {
  if (!(await ctx.db.offer.findUnique({ where: { id: offerId }, select: { id: true } })))
    throw notFound("Offer");
  return listGrants(ctx, { offerId }, query);
}

/**
 * An entitlement made from an offer receives the offer's unrevoked, unexpired grants as its own
 * (same add-on, window and reference), in the creation transaction.
 */
export async function copyOfferGrants(
  tx: TenantTx,
  tenantId: string,
  offerId: string,
  entitlementId: string,
): Promise<void> {
  const at = now();
  const grants = await tx.addOnGrant.findMany({
    where: { offerId, isRevoked: false, OR: [{ expiresAt: null }, { expiresAt: { gt: at } }] },
    orderBy: { startsAt: "asc" },
  });
  if (!grants.length) return;
  await tx.addOnGrant.createMany({
    data: grants.map((g) => ({
      tenantId,
      addOnId: g.addOnId,
      entitlementId,
      startsAt: g.startsAt > at ? g.startsAt : at,
      expiresAt: g.expiresAt,
      reference: g.reference,
      campaignId: g.campaignId,
    })),
  });
}

export async function listAddOnGrants(ctx: DomainContext, entitlementId: string, query: TListQuery) {
  if (!(await ctx.db.entitlement.findUnique({ where: { id: entitlementId }, select: { id: true } })))
    throw notFound("Entitlement");
  return listGrants(ctx, { entitlementId }, query);
}

async function listGrants(
  ctx: DomainContext,
  owner: { entitlementId: string } | { offerId: string },
  query: TListQuery,
) {
  const at = now();
  return listPage(
    query,
    {
      sieve: addOnGrantSieve,
      where: owner,
      defaultOrder: [{ startsAt: "asc" }],
      findMany: (args) => ctx.db.addOnGrant.findMany({ ...args, include: grantInclude }),
      count: (args) => ctx.db.addOnGrant.count(args),
    },
    (rows) => rows.map((r) => toGrantResponse(r, at)),
  );
}

/** POST .../add-on-grants/{grantId}/revoke: the grant stays (history) but no longer applies; revoking twice is 409. */
export async function revokeAddOnGrant(
  ctx: DomainContext,
  ownerId: string,
  grantId: string,
  ownerKind: "Entitlement" | "Offer" = "Entitlement",
) {
  return inTransaction(ctx.db, async (tx) => {
    const grant = await tx.addOnGrant.findFirst({
      where: {
        id: grantId,
        ...(ownerKind === "Entitlement" ? { entitlementId: ownerId } : { offerId: ownerId }),
      },
    });
    if (!grant) throw notFound("Add-on grant");
    const { count } = await tx.addOnGrant.updateMany({
      where: { id: grantId, isRevoked: false },
      data: { isRevoked: true, revokedAt: now() },
    });
    if (!count) throw new AppError("add_on_grant.already_revoked", "The grant is already revoked.");
    return toGrantResponse(await readGrant(tx, grantId), now());
  });
}
