import { z } from "zod";
import { consumerProcedure, router, staffProcedure } from "../../init.ts";
import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import { ZSessionLeaseResponse } from "../../../domain/licensing/activation/activation.schemas.ts";
import {
  ZConsumerSessionResponse,
  ZSessionIdParams,
  ZSessionResponse,
} from "../../../domain/licensing/sessions/session-read-model.ts";
import { listSessions } from "../../../domain/licensing/sessions/list-sessions.ts";
import { listSessionsByUser } from "../../../domain/licensing/sessions/list-sessions-by-user.ts";
import {
  getSeatUtilization,
  ZSeatUtilizationRequest,
  ZSeatUtilizationResponse,
} from "../../../domain/licensing/sessions/seat-utilization.ts";
import { listConsumerSessions } from "../../../domain/licensing/sessions/list-consumer-sessions.ts";
import { listConsumerSessionPlans } from "../../../domain/licensing/sessions/consumer-session-plans.ts";
import { releaseStaffSession } from "../../../domain/licensing/sessions/release-staff-session.ts";
import { releaseConsumerSession } from "../../../domain/licensing/sessions/release-consumer-session.ts";
import {
  listConsumerEntitlementPlans,
  ZConsumerPlansResponse,
} from "../../../domain/entitlements/plans/consumer-plans.ts";
import { requestPlanChange } from "../../../domain/entitlements/plans/plan-change-requests.ts";
import {
  ZPlanChangeRequestCreate,
  ZPlanChangeRequestResponse,
} from "../../../domain/entitlements/plans/plan-change.schemas.ts";
import {
  consumerBillingHistory,
  ZConsumerBillingHistory,
} from "../../../domain/entitlements/consumer/consumer-billing-history.ts";
import {
  listConsumerLicenses,
  ZConsumerLicense,
} from "../../../domain/entitlements/consumer/list-consumer-licenses.ts";

/** Back office: the session read model and live seats. Portal: the signed-in user's licenses and sessions. */
export const sessionsRouter = router({
  list: staffProcedure("sessions")
    .input(ZListQuery)
    .output(ZPage(ZSessionResponse))
    .query(({ ctx, input }) => listSessions(ctx.domain, input)),
  byUser: staffProcedure("sessions")
    .input(ZListQuery.extend({ userId: z.string().uuid() }))
    .output(ZPage(ZSessionResponse))
    .query(({ ctx, input }) => listSessionsByUser(ctx.domain, input.userId, input)),
  /** Frees one live session's seat at once (`Entitlement.SeatReleased`), as the application's release would. */
  release: staffProcedure("sessions")
    .input(ZSessionIdParams)
    .output(ZSessionLeaseResponse)
    .mutation(({ ctx, input }) => releaseStaffSession(ctx.domain, input.sessionId)),
  seatUtilization: staffProcedure("sessions")
    .input(ZSeatUtilizationRequest)
    .output(ZSeatUtilizationResponse)
    .query(({ ctx, input }) => getSeatUtilization(ctx.domain, input.entitlementId, input.window)),

  myLicenses: consumerProcedure
    .output(z.array(ZConsumerLicense))
    .query(({ ctx }) => listConsumerLicenses(ctx.domain)),
  myLicensePlans: consumerProcedure
    .input(z.object({ entitlementId: z.string().uuid() }))
    .output(ZConsumerPlansResponse)
    .query(({ ctx, input }) => listConsumerEntitlementPlans(ctx.domain, input.entitlementId)),
  /** The consumer plan-change request (same rule as POST /consumer/me/entitlements/{id}/plan-change-requests). */
  myPlanChange: consumerProcedure
    .input(ZPlanChangeRequestCreate.extend({ entitlementId: z.string().uuid() }))
    .output(ZPlanChangeRequestResponse)
    .mutation(({ ctx, input }) => {
      const { entitlementId, ...request } = input;
      return requestPlanChange(ctx.domain, entitlementId, request);
    }),
  myBillingHistory: consumerProcedure
    .input(ZListQuery.pick({ pageNumber: true, pageSize: true }).extend({ entitlementId: z.string().uuid() }))
    .output(ZConsumerBillingHistory)
    .query(({ ctx, input }) => consumerBillingHistory(ctx.domain, input.entitlementId, input)),
  mySessions: consumerProcedure
    .input(ZListQuery)
    .output(ZPage(ZConsumerSessionResponse))
    .query(({ ctx, input }) => listConsumerSessions(ctx.domain, input)),
  mySessionPlans: consumerProcedure
    .input(ZSessionIdParams)
    .output(ZConsumerPlansResponse)
    .query(({ ctx, input }) => listConsumerSessionPlans(ctx.domain, input.sessionId)),
  releaseMySession: consumerProcedure
    .input(ZSessionIdParams)
    .output(ZSessionLeaseResponse)
    .mutation(({ ctx, input }) => releaseConsumerSession(ctx.domain, input.sessionId)),
});
