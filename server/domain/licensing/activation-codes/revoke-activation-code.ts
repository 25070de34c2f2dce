import type { DomainContext } from "../../context.ts";
import { notFound } from "../../../core/errors.ts";
import { now } from "../../../clock.ts";
import { findTenantActivationCode } from "./find-activation-code.ts";
import { toActivationCodeResponses } from "./activation-code-response.ts";

/**
 * POST /operational/activation-codes/{code}/revoke: the code admits no new activation. Devices
 * already activated through it keep their sessions (a device reset or block ends those).
 * Revoking a revoked code changes nothing.
 */
export async function revokeActivationCode(ctx: DomainContext, codeOrId: string) {
  const row = await findTenantActivationCode(ctx.db, codeOrId);
  if (!row) throw notFound("Activation code");
  const updated =
    row.status === "Revoked"
      ? row
      : await ctx.db.activationCode.update({
          where: { id: row.id },
          data: { status: "Revoked", revokedAt: now() },
        });
  const [response] = await toActivationCodeResponses(ctx.db, [updated]);
  return response;
}
