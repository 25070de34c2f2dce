import { z } from "zod";
import { staffRoles } from "./staff-roles.ts";

/**
 * The staff users' request and response shapes, apart from staff-users.ts so that the back
 * office's invite form validates with the very schema the API parses (that module hashes
 * passwords, which a browser bundle cannot load).
 */
export const ZStaffUserResponse = z.object({
  id: z.string().uuid(),
  email: z.string(),
  name: z.string(),
  staffRole: z.enum(staffRoles).nullable(),
  disabledAt: z.string().nullable(),
  createdAt: z.string(),
});
export type TStaffUserResponse = z.infer<typeof ZStaffUserResponse>;

export const ZStaffInviteRequest = z.object({
  email: z.string().trim().email().max(320),
  name: z.string().trim().max(200).optional(),
  staffRole: z.enum(staffRoles),
});
export const ZStaffRoleChange = z.object({ userId: z.string().uuid(), staffRole: z.enum(staffRoles) });
export const ZStaffUserId = z.object({ userId: z.string().uuid() });
