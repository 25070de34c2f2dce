import type { DomainContext } from "../../context.ts";
import { inTransaction } from "../../../db/tenant-db.ts";
import { Prisma } from "../../../db/generated/client.ts";
import { AppError } from "../../../core/errors.ts";
import { normalizeFeatureCode, liveFeaturesByCode } from "../../catalog/pricing-lookups.ts";
import { validateFeatureValue } from "../../catalog/feature-catalog/feature-value.ts";
import { resolveCustomer } from "../../customers/customer-lookup.ts";
import type { TEntitlementUpdateRequest } from "./entitlement.schemas.ts";
import { readEntitlement } from "./entitlement-response.ts";
import { lockEditableEntitlement } from "./entitlement-lock.ts";
import type { TEntitlementFeature } from "./policies.schemas.ts";
import { syncOwnerStatus } from "../offers/template-snapshot.ts";
import { checkValidity } from "./validity.ts";
import { now } from "../../../clock.ts";

/** The service advances `sequenceCurrent` as it issues codes; an edit of the policy never moves it back. */
const storedSequenceCurrent = (policy: unknown): number | null =>
  (policy as { sequenceCurrent?: number | null } | null)?.sequenceCurrent ?? null;

const date = (v: string | null | undefined, clear: boolean | undefined, current: Date | null) =>
  clear ? null : v ? new Date(v) : current;

/**
 * PATCH /admin/entitlements/{id}: merge. `featureOverrides` set per-entitlement values, allowed
 * only for features with canModifyValueOnEntitlement (400 otherwise); a null value removes one.
 */
export async function updateEntitlement(ctx: DomainContext, id: string, input: TEntitlementUpdateRequest) {
  return inTransaction(ctx.db, async (tx) => {
    const current = await lockEditableEntitlement(tx, ctx.tenantId, id);
    const notValidBefore = date(
      input.notValidBeforeDateTime,
      input.clearNotValidBeforeDate,
      current.notValidBeforeDateTime,
    );
    const expiration = date(input.expirationDateTime, input.clearExpirationDate, current.expirationDateTime);
    checkValidity(notValidBefore, expiration);
    const customer = input.clearCustomer
      ? null
      : input.customerId
        ? await resolveCustomer(tx, input.customerId)
        : undefined;

    let overrides = { ...((current.featureOverrides ?? {}) as Record<string, string>) };
    if (input.featureOverrides) {
      const features = current.features as TEntitlementFeature[];
      const entries = await liveFeaturesByCode(tx, Object.keys(input.featureOverrides));
      for (const [rawCode, value] of Object.entries(input.featureOverrides)) {
        const code = normalizeFeatureCode(rawCode);
        const feature = features.find((f) => f.featureCode === code);
        if (!feature || !feature.canModifyValueOnEntitlement) {
          throw new AppError(
            "entitlement.feature_not_modifiable",
            `The feature ${code} ${feature ? "does not allow canModifyValueOnEntitlement" : "is not on this entitlement"}.`,
          );
        }
        if (value === null) {
          delete overrides[code];
          continue;
        }
        const entry = entries.get(code);
        const problem = entry ? validateFeatureValue(entry, value) : null;
        if (problem) throw new AppError("license.validation_error", `featureOverrides.${code}: ${problem}`);
        overrides = { ...overrides, [code]: value };
      }
    }
    const status = input.status ?? current.status;
    await tx.entitlement.update({
      where: { id },
      data: {
        name: input.name ?? undefined,
        description: input.description ?? undefined,
        status,
        subscriptionStatus: input.subscriptionStatus ?? undefined,
        licenseTermsUrl: input.licenseTermsUrl ?? undefined,
        customerContactName: input.customerContactName ?? undefined,
        customerContactEmail: input.customerContactEmail ?? undefined,
        licenseKey: input.licenseKey ?? undefined,
        reference: input.reference ?? undefined,
        externalReference: input.externalReference ?? undefined,
        notValidBeforeDateTime: notValidBefore,
        expirationDateTime: expiration,
        isEntitlementTrial: input.isEntitlementTrial ?? undefined,
        consumersMayGrantCredits: input.consumersMayGrantCredits ?? undefined,
        ...(customer !== undefined
          ? { customerId: customer?.id ?? null, customerKind: customer?.kind ?? null }
          : {}),
        // Written only when the request edits them: a rename must not record an overrides change.
        ...(input.featureOverrides ? { featureOverrides: overrides as Prisma.InputJsonValue } : {}),
        activationPolicy: (input.activationPolicy ?? undefined) as Prisma.InputJsonValue | undefined,
        keyIssuancePolicy: input.keyIssuancePolicy
          ? ({
              ...input.keyIssuancePolicy,
              sequenceCurrent: storedSequenceCurrent(current.keyIssuancePolicy),
            } as Prisma.InputJsonValue)
          : undefined,
        claimBasedActivation: (input.claimBasedActivation ?? undefined) as Prisma.InputJsonValue | undefined,
        revisionNumber: { increment: 1 },
      },
    });
    if (status !== current.status) await syncOwnerStatus(tx, id, status);
    return (await readEntitlement(tx, id))!;
  });
}

/** DELETE /admin/entitlements/{id}: archives it (kept for history); its balance copies are no longer drawn on. */
export async function deleteEntitlement(ctx: DomainContext, id: string): Promise<void> {
  await inTransaction(ctx.db, async (tx) => {
    const current = await lockEditableEntitlement(tx, ctx.tenantId, id, { allowArchived: true });
    if (current.status === "Archived") return;
    await tx.entitlement.update({
      where: { id },
      data: {
        status: "Archived",
        archivedAt: now(),
        activationsEnabled: false,
        revisionNumber: { increment: 1 },
      },
    });
    await syncOwnerStatus(tx, id, "Archived");
  });
}

/** POST /admin/entitlements/{id}/enable-activations and /disable-activations: a toggle; new activations are refused while off. */
export async function setActivationsEnabled(ctx: DomainContext, id: string, enabled: boolean) {
  return inTransaction(ctx.db, async (tx) => {
    const current = await lockEditableEntitlement(tx, ctx.tenantId, id);
    if (current.activationsEnabled !== enabled) {
      await tx.entitlement.update({
        where: { id },
        data: { activationsEnabled: enabled, revisionNumber: { increment: 1 } },
      });
    }
    return (await readEntitlement(tx, id))!;
  });
}
