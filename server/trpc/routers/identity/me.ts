import { z } from "zod";
import { consumerProcedure, router, signedInProcedure } from "../../init.ts";
import { callerIp } from "../../../core/caller-address.ts";
import {
  getProfile,
  updateProfile,
  ZProfile,
  ZProfileUpdate,
} from "../../../domain/identity/profile/profile.ts";
import { changePassword } from "../../../domain/identity/profile/change-password.ts";
import { ZPasswordChangeRequest } from "../../../domain/identity/profile/change-password.schemas.ts";
import { signOutOtherSessions } from "../../../domain/identity/profile/other-sessions.ts";
import { permissionsOf, staffRoles } from "../../../domain/identity/staff-roles/staff-roles.ts";

export const ZMeResponse = z.object({
  userId: z.string(),
  tenantId: z.string(),
  tenantName: z.string(),
  kind: z.enum(["staff", "consumer"]),
  email: z.string(),
  name: z.string(),
  roles: z.array(z.string()),
  /** Staff: the role and what it allows (the UI hides what the server would refuse). */
  staffRole: z.enum(staffRoles).nullable(),
  permissions: z.array(z.string()),
});

export const meRouter = router({
  /** Who is signed in (either kind of user). */
  get: signedInProcedure
    .output(ZMeResponse)
    .query(({ ctx }) => ({ ...ctx.session, permissions: permissionsOf(ctx.session.staffRole) })),

  /** Portal profile: name, email, when other sessions were last signed out. */
  profile: consumerProcedure.output(ZProfile).query(({ ctx }) => getProfile(ctx.domain)),
  updateProfile: consumerProcedure
    .input(ZProfileUpdate)
    .output(ZProfile)
    .mutation(({ ctx, input }) => updateProfile(ctx.domain, input)),
  /** The current password is checked under the sign-in back-off of this email and address. */
  changePassword: consumerProcedure
    .input(ZPasswordChangeRequest)
    .output(z.object({ changed: z.literal(true) }))
    .mutation(({ ctx, input }) =>
      changePassword(
        ctx.domain,
        input,
        {
          userKind: ctx.session.kind,
          email: ctx.session.email,
          address: callerIp({ headers: ctx.headers ?? new Headers() }),
        },
        ctx.session.sessionId,
      ),
    ),
  signOutOtherSessions: consumerProcedure
    .output(z.object({ signedOutOthers: z.literal(true) }))
    .mutation(({ ctx }) => signOutOtherSessions(ctx.domain, ctx.session.sessionId)),
});
