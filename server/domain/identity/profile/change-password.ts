import { hash, verify } from "@node-rs/argon2";
import type { DomainContext } from "../../context.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { now } from "../../../clock.ts";
import { reserveCredentialAttempt } from "../credential-attempts.ts";
import type { UserKind } from "../users.ts";
import type { TPasswordChangeRequest } from "./change-password.schemas.ts";

/** Whose password is changed, as the sign-in back-off keys it (credential-attempts.ts). */
export type PasswordChanger = { userKind: UserKind; email: string; address: string | null };

/**
 * The portal's (and back office's) password change: the current password is required and
 * checked like a sign-in, on the same back-off (`signin.failed_password` for the user's email and
 * address, reserved before the check): a wrong current password counts as a failed sign-in, and
 * past the limit no password is checked at all, so the form cannot be used to guess a password
 * the sign-in page protects. The new password replaces it and the user's other sessions end (the
 * one that asked, `keepSessionId`, stays signed in).
 */
export async function changePassword(
  ctx: DomainContext,
  input: TPasswordChangeRequest,
  who: PasswordChanger,
  keepSessionId: string,
) {
  const attempt = await reserveCredentialAttempt(
    { kind: "password", userKind: who.userKind, email: who.email },
    who.address,
  );
  if (attempt.refused) {
    const wait = attempt.refused.resetSeconds;
    throw new AppError(
      "request.rate_limited",
      `Too many wrong passwords. Try again in ${Math.ceil(wait / 60)} minute${wait > 60 ? "s" : ""}.`,
      { headers: { "retry-after": String(wait) } },
    );
  }
  const user = await ctx.db.user.findFirst({ where: { id: ctx.actor.id }, select: { passwordHash: true } });
  if (!user) {
    await attempt.settle("not-failed");
    throw notFound("User");
  }
  if (!user.passwordHash || !(await verify(user.passwordHash, input.currentPassword))) {
    await attempt.settle("failed");
    throw new AppError("auth.current_password_wrong", "Your current password is not right.");
  }
  await attempt.settle("not-failed");
  await ctx.db.user.update({
    where: { id: ctx.actor.id },
    data: {
      passwordHash: await hash(input.newPassword),
      sessionsValidFrom: now(),
      keptSessionId: keepSessionId || null,
    },
  });
  return { changed: true as const };
}
