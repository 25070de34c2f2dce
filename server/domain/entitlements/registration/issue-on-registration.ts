import type { DomainContext } from "../../context.ts";
import type { CustomerUser } from "../../../db/generated/client.ts";
import { AppError, notFound } from "../../../core/errors.ts";
import { isCustomer } from "../../customers/customer-user-events.ts";
import { createEntitlement } from "../entitlement/create-entitlement.ts";
import { ZEntitlementCreateRequest } from "../entitlement/entitlement.schemas.ts";
import { convertAnonymousTry } from "../anonymous-try/convert-anonymous-try.ts";

/**
 * Issue on registration (docs/api.md `issueOnUserRegistration`): when a customer user of type
 * `Consumer` is created, every Published offer with the flag issues it one entitlement, in the
 * same transaction (the user and their entitlements exist together or not at all). Entitlements
 * are made exactly as POST /admin/entitlements makes them from an offer, with the user as
 * customer, and emit what that emits. With `anonymousTryId`, the device's anonymous try converts
 * to the entitlement issued from the try's own offer; when that offer issues nothing on
 * registration the request is refused (400) and nothing is created. Answers the issued ids.
 */
export async function issueOnUserRegistration(
  ctx: DomainContext,
  user: CustomerUser,
  anonymousTryId: string | null,
): Promise<string[]> {
  const anonymousTry = anonymousTryId
    ? await ctx.db.entitlement.findUnique({
        where: { id: anonymousTryId },
        select: { id: true, isAnonymousTry: true, sourceOfferId: true },
      })
    : null;
  if (anonymousTryId && !anonymousTry) throw notFound(`Entitlement ${anonymousTryId}`);
  if (anonymousTry && !anonymousTry.isAnonymousTry)
    throw new AppError(
      "anonymous_try.not_anonymous_try",
      `Entitlement ${anonymousTry.id} is not an anonymous try.`,
    );

  const registers = user.userType === "Consumer" && isCustomer(user);
  const offers = registers
    ? await ctx.db.offer.findMany({
        where: { status: "Published", issueOnUserRegistration: true },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        select: { id: true },
      })
    : [];
  const issued = new Map<string, string>();
  for (const offer of offers) {
    const entitlement = await createEntitlement(
      ctx,
      ZEntitlementCreateRequest.parse({ offerId: offer.id, customerId: user.id }),
    );
    issued.set(offer.id, entitlement.id);
  }
  if (anonymousTry) {
    const target = anonymousTry.sourceOfferId ? issued.get(anonymousTry.sourceOfferId) : undefined;
    if (!target)
      throw new AppError(
        "anonymous_try.not_convertible_on_registration",
        "The anonymous try's offer issues no entitlement on registration; convert the try when the user buys.",
      );
    await convertAnonymousTry(ctx, anonymousTry.id, target);
  }
  return [...issued.values()];
}
