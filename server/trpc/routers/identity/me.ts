import { z } from "zod";
import { router, signedInProcedure } from "../../init.ts";
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
});
