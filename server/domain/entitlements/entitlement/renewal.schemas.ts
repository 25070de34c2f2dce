import { z } from "zod";

/** POST /operational/entitlements/{id}/renew (docs/architecture.md section 8): the new end of validity. */
export const ZEntitlementRenewRequest = z.strictObject({
  expirationDateTime: z.string().datetime({ offset: true }),
});
export type TEntitlementRenewRequest = z.infer<typeof ZEntitlementRenewRequest>;
