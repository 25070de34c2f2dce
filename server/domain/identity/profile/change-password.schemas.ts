import { z } from "zod";

/** The password change form and procedure (change-password.ts): shared by the page and the server. */
export const ZPasswordChangeRequest = z
  .object({
    currentPassword: z.string().min(1, "Enter your current password.").max(200),
    newPassword: z.string().min(10, "Passwords have at least 10 characters.").max(200),
  })
  .refine((v) => v.currentPassword !== v.newPassword, {
    path: ["newPassword"],
    message: "The new password must differ from the current one.",
  });
export type TPasswordChangeRequest = z.infer<typeof ZPasswordChangeRequest>;
