import type { Entitlement } from "../../../db/generated/client.ts";
import type { SqlTx } from "../../../db/sql.ts";
import { AppError } from "../../../core/errors.ts";
import type { TActivationPolicy } from "../../entitlements/entitlement/policies.schemas.ts";
import type { ActivationMeta } from "./activation-outcome.ts";
import type { ActivationFacts } from "./activation-facts.ts";
import type { TActivationRequest } from "./activation.schemas.ts";
import { ipAllowed } from "./ip-allowed.ts";

/** Step 3: activationPolicy. An operator issuing an offline artifact stands in for the user and the network checks. */
export async function checkPolicy(
  sql: SqlTx,
  e: Entitlement,
  facts: ActivationFacts,
  policy: TActivationPolicy,
  input: TActivationRequest,
  meta: ActivationMeta,
  at: Date,
): Promise<{ productIds: string[]; productsEnded: boolean }> {
  if (meta.kind === "Online") {
    if (policy.requireActivationWorkflow)
      throw new AppError(
        "license.forbidden_by_policy",
        "This license is activated through the vendor's activation workflow (offline issue), not directly.",
      );
    const needsUser =
      policy.requiredAuthenticationLevel !== "Default" ||
      policy.requireNewUserVerification ||
      policy.requireOrganizationGroupMember;
    if (needsUser) {
      if (!meta.user || !input.useInteractiveUser)
        throw new AppError(
          "license.user_authentication_required",
          "This license is activated by a signed-in user (useInteractiveUser with the user's token).",
        );
      const userId = meta.user.id;
      const customers = await sql.prisma((tx) =>
        tx.customerUser.findMany({
          where: { userId },
          select: { isApproved: true, isBlocked: true, organizationIds: true },
        }),
      );
      const verified = customers.some((c) => c.isApproved && !c.isBlocked);
      if (
        (policy.requiredAuthenticationLevel === "VerifiedUser" || policy.requireNewUserVerification) &&
        !verified
      ) {
        throw new AppError("license.forbidden_by_policy", "The license requires a verified user.");
      }
      if (
        policy.requireOrganizationGroupMember &&
        !customers.some((c) => c.organizationIds.includes(policy.requireOrganizationGroupMember!))
      ) {
        throw new AppError(
          "license.forbidden_by_policy",
          "The license requires membership of the vendor's organization group.",
        );
      }
    }
    if (policy.allowedIpCidr.length > 0 && !(meta.ip && ipAllowed(meta.ip, policy.allowedIpCidr))) {
      throw new AppError(
        "license.ip_not_allowed",
        "The caller's address is outside the license's allowed ranges.",
      );
    }
  }
  if (
    policy.requiredDeviceIdentificationSignatureLength > 0 &&
    input.fingerprint.length !== policy.requiredDeviceIdentificationSignatureLength
  ) {
    throw new AppError(
      "license.device_signature_invalid",
      `The device identification must be ${policy.requiredDeviceIdentificationSignatureLength} characters long.`,
    );
  }
  if (policy.requireProductCode && !input.productCode)
    throw new AppError(
      "license.product_code_required",
      "This license needs productCode: the product being activated.",
    );
  if (input.productCode) {
    const productCode = input.productCode;
    const product = await sql.prisma((tx) =>
      tx.product.findFirst({
        where: { id: { in: e.productIds }, productCode: { equals: productCode, mode: "insensitive" } },
        select: { id: true, expirationDate: true },
      }),
    );
    if (!product)
      throw new AppError(
        "license.product_not_licensed",
        `Product ${input.productCode} is not part of this license.`,
      );
    return {
      productIds: [product.id],
      productsEnded: product.expirationDate !== null && product.expirationDate <= at,
    };
  }
  return { productIds: e.productIds, productsEnded: facts.allProductsEnded === true };
}
