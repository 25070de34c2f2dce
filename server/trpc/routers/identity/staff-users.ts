import { z } from "zod";
import { router, staffProcedure } from "../../init.ts";
import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import {
  changeStaffRole,
  inviteStaffUser,
  listStaffUsers,
  setStaffUserDisabled,
  ZStaffInviteRequest,
  ZStaffRoleChange,
  ZStaffUserId,
  ZStaffUserResponse,
} from "../../../domain/identity/staff-roles/staff-users.ts";

export const staffUsersRouter = router({
  list: staffProcedure("users")
    .input(ZListQuery)
    .output(ZPage(ZStaffUserResponse))
    .query(({ ctx, input }) => listStaffUsers(ctx.domain, input)),

  /** Answers the one-time password once; only its hash is stored. */
  invite: staffProcedure("users")
    .input(ZStaffInviteRequest)
    .output(z.object({ user: ZStaffUserResponse, password: z.string() }))
    .mutation(({ ctx, input }) => inviteStaffUser(ctx.domain, input)),

  changeRole: staffProcedure("users")
    .input(ZStaffRoleChange)
    .output(ZStaffUserResponse)
    .mutation(({ ctx, input }) => changeStaffRole(ctx.domain, input.userId, input.staffRole)),

  disable: staffProcedure("users")
    .input(ZStaffUserId)
    .output(ZStaffUserResponse)
    .mutation(({ ctx, input }) => setStaffUserDisabled(ctx.domain, input.userId, true)),

  enable: staffProcedure("users")
    .input(ZStaffUserId)
    .output(ZStaffUserResponse)
    .mutation(({ ctx, input }) => setStaffUserDisabled(ctx.domain, input.userId, false)),
});
