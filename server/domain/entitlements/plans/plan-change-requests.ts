import type { DomainContext } from "../../context.ts";
import { inTransaction, type TenantDbOrTx } from "../../../db/tenant-db.ts";
import type { PlanChangeRequest } from "../../../db/generated/client.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { listPage } from "../../../db/list-page.ts";
import type { SieveWhitelist } from "../../../db/sieve-where.ts";
import { now } from "../../../clock.ts";
import { emitEvent } from "../../webhooks/events/emit-event.ts";
import { lockEditableEntitlement } from "../entitlement/entitlement-lock.ts";
import {
  planChangeStatuses,
  ZPlanChangeRequestResponse,
  type TPlanChangeRequestCreate,
  type TPlanChangeReview,
} from "./plan-change.schemas.ts";
import { planChangeSources, recordPlanChange } from "./plan-history.ts";
import { resolvePlan } from "./plan-lookup.ts";
import { entitlementRoutingKeys } from "../entitlement/entitlement-routing-keys.ts";
import { isConsumerEntitlement } from "../consumer/consumer-entitlements.ts";

export const planChangeRequestSieve: SieveWhitelist = {
  id: { type: "uuid", sortable: false },
  entitlementId: { type: "uuid" },
  status: { type: "enum", values: planChangeStatuses },
  requestedPlanName: { type: "string" },
  requestedPlanSetId: { type: "uuid", sortable: false },
  createdAt: { type: "date" },
  reviewedAt: { type: "date", nullable: true },
};

async function toResponses(db: TenantDbOrTx, rows: readonly PlanChangeRequest[]) {
  const entitlements = await db.entitlement.findMany({
    where: { id: { in: rows.map((r) => r.entitlementId) } },
    select: { id: true, planSetId: true, planName: true },
  });
  return rows.map((r) => {
    const e = entitlements.find((x) => x.id === r.entitlementId);
    return ZPlanChangeRequestResponse.parse({
      id: r.id,
      entitlementId: r.entitlementId,
      requestedByUserId: r.requestedByUserId,
      requestedPlanSetId: r.requestedPlanSetId,
      requestedPlanName: r.requestedPlanName,
      requestedPlanCode: r.requestedPlanName,
      currentPlanSetId: e?.planSetId ?? null,
      currentPlanName: e?.planName ?? null,
      note: r.note,
      status: r.status,
      reviewedAt: r.reviewedAt?.toISOString() ?? null,
      reviewedBy: r.reviewedBy,
      reviewNote: r.reviewNote,
      createdAt: r.createdAt.toISOString(),
    });
  });
}

/**
 * POST /consumer/me/entitlements/{id}/plan-change-requests: the signed-in user asks to move an
 * entitlement assigned to them (or to their organization) to another plan of a Published
 * revision. Another user's entitlement is not found. One pending request per entitlement.
 */
export async function requestPlanChange(
  ctx: DomainContext,
  entitlementId: string,
  input: TPlanChangeRequestCreate,
) {
  return inTransaction(ctx.db, async (tx) => {
    if (!(await isConsumerEntitlement({ ...ctx, db: tx }, entitlementId))) throw notFound("Entitlement");
    const entitlement = await lockEditableEntitlement(tx, ctx.tenantId, entitlementId);
    const planSetId = input.planSetId ?? entitlement.planSetId;
    if (!planSetId)
      throw new AppError(
        "entitlement.no_plan",
        "The entitlement has no plan set; name the planSetId to move to.",
      );
    const plan = await resolvePlan(tx, planSetId, input.planName, { requirePublished: true });
    if (await tx.planChangeRequest.count({ where: { entitlementId, status: "Pending" } })) {
      throw new AppError(
        "plan_change.pending_exists",
        "A plan-change request for this entitlement is already waiting for review.",
      );
    }
    const row = await tx.planChangeRequest.create({
      data: {
        tenantId: ctx.tenantId,
        entitlementId,
        requestedByUserId: ctx.actor.id,
        requestedPlanSetId: plan.planSetId,
        requestedPlanName: plan.planName,
        note: input.note,
      },
    });
    return (await toResponses(tx, [row]))[0];
  });
}

export async function listPlanChangeRequests(ctx: DomainContext, query: TListQuery) {
  return listPage(
    query,
    {
      sieve: planChangeRequestSieve,
      defaultOrder: [{ createdAt: "desc" }],
      findMany: (args) => ctx.db.planChangeRequest.findMany(args),
      count: (args) => ctx.db.planChangeRequest.count(args),
    },
    (rows) => toResponses(ctx.db, rows),
  );
}

/**
 * POST /admin/plan-change-requests/{id}/review {approved, note}: an approval assigns the requested plan
 * (history source ApprovedPlanChangeRequest); either way `Entitlement.PlanChangeReviewed` is
 * emitted with approved, requestedPlanCode and the entitlement's routing keys (after the change).
 */
export async function reviewPlanChangeRequest(ctx: DomainContext, id: string, review: TPlanChangeReview) {
  const { approved } = review;
  return inTransaction(ctx.db, async (tx) => {
    const [locked] = await tx.$queryRaw<
      { id: string }[]
    >`SELECT id FROM "PlanChangeRequest" WHERE "tenantId" = ${ctx.tenantId}::uuid AND id = ${id}::uuid FOR UPDATE`;
    if (!locked) throw notFound("Plan-change request");
    const request = await tx.planChangeRequest.findUniqueOrThrow({ where: { id } });
    if (request.status !== "Pending")
      throw new AppError(
        "plan_change.already_reviewed",
        `The request was already ${request.status.toLowerCase()}.`,
      );
    const entitlement = await lockEditableEntitlement(tx, ctx.tenantId, request.entitlementId);
    if (approved) {
      const plan = await resolvePlan(tx, request.requestedPlanSetId, request.requestedPlanName, {
        requirePublished: true,
      });
      const previous =
        entitlement.planSetId && entitlement.planName
          ? { planSetId: entitlement.planSetId, planName: entitlement.planName }
          : null;
      await recordPlanChange(tx, ctx.tenantId, entitlement.id, {
        previous,
        next: plan,
        source: planChangeSources.planChangeRequest,
      });
    }
    const reviewedAt = now();
    const updated = await tx.planChangeRequest.update({
      where: { id },
      data: {
        status: approved ? "Approved" : "Rejected",
        reviewedAt,
        reviewedBy: ctx.actor.kind === "client" ? ctx.actor.clientId : ctx.actor.id,
        reviewNote: review.note,
      },
    });
    await emitEvent(tx, {
      tenantId: ctx.tenantId,
      type: "Entitlement.PlanChangeReviewed",
      entityKind: "entitlement",
      entityId: entitlement.id,
      subject: `entitlements/${entitlement.id}`,
      data: {
        ...(await entitlementRoutingKeys(tx, entitlement.id)),
        planChangeRequestId: id,
        approved,
        requestedPlanCode: request.requestedPlanName,
        reviewedAtUtc: reviewedAt.toISOString(),
      },
    });
    return (await toResponses(tx, [updated]))[0];
  });
}
