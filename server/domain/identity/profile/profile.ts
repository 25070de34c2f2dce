import { z } from "zod";
import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";

export const ZProfile = z.object({
  name: z.string(),
  email: z.string(),
  /** When the user last signed out their other sessions or changed their password; null if never. */
  sessionsValidFrom: z.string().nullable(),
});

export const ZProfileUpdate = z.object({
  name: z.string().trim().min(1, "Enter your name.").max(200),
});
export type TProfileUpdate = z.infer<typeof ZProfileUpdate>;

async function readProfile(ctx: DomainContext) {
  const user = await ctx.db.user.findFirst({
    where: { id: ctx.actor.id },
    select: { name: true, email: true, sessionsValidFrom: true },
  });
  if (!user) throw notFound("User");
  return {
    name: user.name,
    email: user.email,
    sessionsValidFrom: user.sessionsValidFrom?.toISOString() ?? null,
  };
}

/** The signed-in user's profile: their name (editable) and email (shown; staff change it). */
export const getProfile = readProfile;

/** Renames the signed-in user; the new name shows from their next sign-in on the top bar. */
export async function updateProfile(ctx: DomainContext, input: TProfileUpdate) {
  await ctx.db.user.update({ where: { id: ctx.actor.id }, data: { name: input.name } });
  return readProfile(ctx);
}
