/**
 * The error-code catalog: every problem the API can answer, with its stable integer `code`,
 * its HTTP status and a short title. docs/api.md fixes some numbers (2004, 4022, 4033, 4034, 4035);
 * the rest are assigned here once and never reused.
 *
 * Ranges: 1xxx platform (auth, idempotency, concurrency), 2xxx licensing, 3xxx catalog,
 * 4xxx webhooks, 5xxx metering, 6xxx entitlements.
 */
export const errorCatalog = {
  "internal.error": { code: 1000, status: 500, title: "Internal error" },
  "auth.unauthenticated": { code: 1001, status: 401, title: "Authentication required" },
  "auth.insufficient_scope": { code: 1003, status: 403, title: "Insufficient scope" },
  "auth.forbidden": { code: 1004, status: 403, title: "Forbidden" },
  "auth.current_password_wrong": { code: 1005, status: 400, title: "The current password is not right" },
  "idempotency.key_reused": { code: 1010, status: 409, title: "Idempotency key reused" },
  "concurrency.revision_mismatch": { code: 1020, status: 409, title: "Stale revision" },
  "request.unsupported_media_type": { code: 1030, status: 415, title: "Unsupported media type" },
  "request.payload_too_large": { code: 1031, status: 413, title: "Payload too large" },
  // Staff roles (docs/security.md "Staff roles"): 1060-1069.
  "staff.permission_denied": { code: 1060, status: 403, title: "Your role does not allow this" },
  "staff.scope_beyond_role": { code: 1061, status: 403, title: "Scopes beyond your role" },
  "staff.last_owner": { code: 1062, status: 409, title: "The last active owner must stay" },
  // docs/api.md shows no general rate-limit code (only replay's): docs/decisions.md "Rate limits".
  "request.rate_limited": { code: 1040, status: 429, title: "Too many requests" },
  "service.unavailable": { code: 1050, status: 503, title: "Service temporarily unavailable" },

  "license.validation_error": { code: 2001, status: 400, title: "Validation error" },
  "license.not_found": { code: 2004, status: 404, title: "Not found" },
  "license.conflict": { code: 2009, status: 409, title: "Conflict" },
  // Runtime licensing (activation and session calls): 2010-2099.
  "license.session_token_rejected": { code: 2010, status: 401, title: "License token rejected" },
  "license.no_active_session": { code: 2011, status: 409, title: "No active session" },
  "license.forbidden_by_policy": { code: 2012, status: 403, title: "Forbidden by the license's policy" },
  "license.product_end_of_life": {
    code: 2013,
    status: 403,
    title: "Every usable product is past its end of life",
  },
  "license.activations_disabled": {
    code: 2020,
    status: 403,
    title: "Activations are disabled on the license",
  },
  "license.not_yet_valid": { code: 2021, status: 403, title: "The license is not valid yet" },
  "license.expired": { code: 2022, status: 403, title: "The license has expired" },
  "license.trial_expired": { code: 2023, status: 403, title: "The trial has ended" },
  "license.subscription_lapsed": { code: 2024, status: 403, title: "The license's subscription has lapsed" },
  "license.ip_not_allowed": {
    code: 2025,
    status: 403,
    title: "The caller's address is outside the allowed ranges",
  },
  "license.product_code_required": { code: 2026, status: 400, title: "A product code is required" },
  "license.product_not_licensed": {
    code: 2027,
    status: 403,
    title: "The product is not part of the license",
  },
  "license.device_signature_invalid": {
    code: 2028,
    status: 400,
    title: "The device identification has the wrong length",
  },
  "license.device_not_registered": { code: 2029, status: 403, title: "The device is not pre-registered" },
  "license.device_blocked": { code: 2030, status: 403, title: "The device is blocked" },
  "license.no_seat_available": { code: 2031, status: 409, title: "No seat available" },
  "license.device_limit_reached": {
    code: 2032,
    status: 409,
    title: "The activation code's device limit is reached",
  },
  "license.activation_code_required": { code: 2033, status: 400, title: "An activation code is required" },
  "license.user_authentication_required": {
    code: 2034,
    status: 401,
    title: "The license requires a signed-in user",
  },
  "license.user_not_verified": {
    code: 2035,
    status: 403,
    title: "The license requires a verified user",
  },
  // Runtime usage surface: 2100-2149.
  "license.metric_not_tracked": {
    code: 2100,
    status: 404,
    title: "The license does not track this metric",
  },

  "tag.name_taken": { code: 3001, status: 409, title: "Tag name already in use" },
  "tag.scope_mismatch": { code: 3002, status: 400, title: "Tags are in different scopes" },
  "tag.merge_into_self": { code: 3003, status: 400, title: "A tag cannot be merged into itself" },

  "product.code_taken": { code: 3101, status: 409, title: "Product code and version already in use" },
  "product.locked": { code: 3102, status: 400, title: "Product is locked" },
  "product.invalid_status_transition": { code: 3103, status: 400, title: "Product status move not allowed" },
  "product.in_use": { code: 3104, status: 400, title: "Product is referenced" },
  "product.feature_already_attached": { code: 3105, status: 409, title: "Feature already on the product" },
  "feature.code_taken": { code: 3111, status: 409, title: "Feature code already in use" },
  "feature.invalid_lifecycle_transition": { code: 3112, status: 400, title: "Lifecycle move not allowed" },
  "feature.in_use": { code: 3113, status: 400, title: "Feature catalog entry is referenced" },
  "feature.not_attachable": { code: 3114, status: 400, title: "Feature catalog entry cannot be attached" },
  "asset.metric_taken": { code: 3121, status: 409, title: "Metric name already in use" },
  "asset.balance_in_use": { code: 3122, status: 400, title: "Balance is drawn on by metering" },
  "asset.in_use": { code: 3123, status: 400, title: "Monitored asset is drawn on by metering" },

  // Reports: 3800-3849.
  "report.invalid_period": { code: 3800, status: 400, title: "Invalid report period" },
  "report.too_many_buckets": { code: 3801, status: 400, title: "Too many intervals in the report period" },

  "suite.code_taken": { code: 3501, status: 409, title: "Suite code already in use" },
  "suite.in_use": { code: 3502, status: 400, title: "Suite owns plan sets or add-ons" },
  "plan_set.archived": { code: 3511, status: 400, title: "Archived plan-set revisions are read-only" },
  "plan_set.status_change_through_edit": {
    code: 3512,
    status: 400,
    title: "Status moves only through PUT .../status",
  },
  "plan_set.invalid_status_transition": {
    code: 3513,
    status: 400,
    title: "Plan-set status move not allowed",
  },
  "plan_set.not_publishable": { code: 3514, status: 400, title: "Plan-set revision cannot be published" },
  "add_on.code_taken": { code: 3521, status: 409, title: "Add-on code already in use" },
  "add_on.archived": { code: 3522, status: 400, title: "Archived add-ons are read-only" },
  "add_on.delete_refused": { code: 3523, status: 400, title: "Add-on cannot be deleted; archive it instead" },

  // Catalog export and import (portability): 3700-3799.
  "catalog.empty_selection": { code: 3700, status: 400, title: "The export selects nothing" },
  "catalog.unsupported_format_version": {
    code: 3701,
    status: 400,
    title: "Catalog snapshot format version not supported",
  },
  "catalog.unknown_apply_keys": {
    code: 3702,
    status: 400,
    title: "Selective-apply keys not in the snapshot",
  },
  "catalog.import_too_large": {
    code: 3703,
    status: 413,
    title: "The import is larger than one import may be",
  },

  "subscription.not_applicable": { code: 4022, status: 400, title: "Not applicable to this subscription" },
  "subscription.invalid_url": { code: 4033, status: 400, title: "Invalid receiver URL" },
  "subscription.invalid_filter": { code: 4034, status: 400, title: "Filter can never match" },
  "subscription.invalid_event_type": { code: 4035, status: 400, title: "Invalid event type pattern" },
  "subscription.invalid_state": { code: 4040, status: 409, title: "Not allowed in the subscription's state" },
  "subscription.invalid_callback_scope": { code: 4041, status: 400, title: "Callback scope not allowed" },
  "subscription.invalid_secret": { code: 4042, status: 400, title: "Invalid signing secret" },
  "replay.invalid_selection": { code: 4050, status: 400, title: "Invalid replay selection" },
  "replay.rate_limited": { code: 4051, status: 429, title: "Replay ceiling exceeded" },
  "delivery.ambiguous_envelope": { code: 4060, status: 400, title: "Envelope reached several subscriptions" },
  "delivery.not_dead_lettered": { code: 4061, status: 409, title: "Delivery is not dead-lettered" },
  "subscription.callback_scope_not_granted": {
    code: 4070,
    status: 403,
    title: "Callback scope beyond what the credential may grant",
  },
  "subscription.send_rate_limited": {
    code: 4071,
    status: 429,
    title: "Too many test-fires or verifications for this subscription",
  },
  "client.not_integrator": { code: 4072, status: 400, title: "Not an active integrator client" },

  // Metering (usage, consumption, balances): 5000-5199.
  "usage.overloaded": { code: 5000, status: 503, title: "Usage uploads are busy; retry later" },
  "usage.batch_too_large": { code: 5001, status: 400, title: "Too many records in one batch" },
  // docs/security.md "Round 3", item 4.
  "usage.amount_exceeds_ceiling": {
    code: 5002,
    status: 400,
    title: "A record or the batch reports more than the metric's ceiling",
  },
  "usage.meter_limit_exceeded": {
    code: 5003,
    status: 409,
    title: "A meter or balance would pass the largest amount it holds",
  },
  "usage.rating_not_applicable": {
    code: 5010,
    status: 400,
    title: "No running rating campaign asks this license about that feature",
  },

  // Entitlements: offers, entitlements, customers, plans, billing, grants (6001-6299).
  "offer.not_published": { code: 6001, status: 400, title: "Offer is not Published" },
  "offer.invalid_status_transition": { code: 6002, status: 400, title: "Offer status move not allowed" },
  "offer.archived": { code: 6003, status: 400, title: "Archived offers are read-only" },
  "entitlement.archived": { code: 6011, status: 400, title: "Archived entitlements are read-only" },
  "entitlement.invalid_validity": { code: 6012, status: 400, title: "Invalid validity window" },
  "entitlement.feature_not_modifiable": {
    code: 6013,
    status: 400,
    title: "Feature value cannot be modified on the entitlement",
  },
  "entitlement.no_plan": { code: 6014, status: 400, title: "Entitlement has no plan" },
  "plan.not_found": { code: 6021, status: 400, title: "Plan not found in the plan set" },
  "plan.plan_set_not_published": { code: 6022, status: 400, title: "Plan set revision is not Published" },
  "plan_change.already_reviewed": { code: 6031, status: 409, title: "Plan-change request already reviewed" },
  "plan_change.pending_exists": {
    code: 6032,
    status: 409,
    title: "A plan-change request is already pending",
  },
  "billing.unknown_provider": { code: 6041, status: 400, title: "Unknown billing provider" },
  "billing.subscription_reference_taken": {
    code: 6042,
    status: 409,
    title: "Provider subscription reference already in use",
  },
  "billing.not_manual": {
    code: 6043,
    status: 400,
    title: "Billing record is not managed by the manual provider",
  },
  "add_on_grant.suite_mismatch": {
    code: 6051,
    status: 400,
    title: "Add-on suite does not match the entitlement's plan",
  },
  "add_on_grant.add_on_archived": { code: 6052, status: 400, title: "Archived add-ons cannot be granted" },
  "add_on_grant.already_revoked": { code: 6053, status: 409, title: "Grant already revoked" },
  "customer.in_use": { code: 6061, status: 400, title: "Customer is assigned to entitlements" },

  // Codes, devices and balances (6300–6599): activation codes, devices, credit balances.
  "activation_code.issuance_disabled": {
    code: 6300,
    status: 400,
    title: "Activation codes cannot be issued for this entitlement",
  },
  "activation_code.collision_retry_exhausted": {
    code: 6301,
    status: 409,
    title: "No free activation code found within the collision retry limit",
  },
  "activation_code.sequence_exhausted": {
    code: 6302,
    status: 409,
    title: "The activation code sequence no longer fits the template",
  },
  "activation_code.revoked": { code: 6303, status: 403, title: "Activation code is revoked" },
  "balance.insufficient_credits": { code: 6400, status: 400, title: "Not enough credits on the balance" },
  "balance.unlimited": { code: 6401, status: 400, title: "The balance has unlimited credits" },
  "balance.consumer_grant_not_allowed": {
    code: 6402,
    status: 403,
    title: "Consumers may not grant credits on this entitlement",
  },
  "balance.consumer_grant_limit_exceeded": {
    code: 6403,
    status: 400,
    title: "The grant is over the consumer credit grant limit",
  },

  // Entitlements validation (6600–6699).
  "balance.limit_exceeded": { code: 6600, status: 400, title: "The balance would exceed its largest amount" },
  // Entitlement lifecycle (renew), anonymous try, registration issuance: 6700-6799.
  "entitlement.not_renewable": { code: 6700, status: 400, title: "The entitlement cannot be renewed" },
  "entitlement.renewal_shortens": {
    code: 6701,
    status: 400,
    title: "A renewal cannot move the expiration earlier",
  },
  "anonymous_try.not_allowed": { code: 6710, status: 403, title: "The offer does not allow anonymous tries" },
  "anonymous_try.already_used": {
    code: 6711,
    status: 403,
    title: "The device has already used its anonymous try of this offer",
  },
  "anonymous_try.not_anonymous_try": {
    code: 6712,
    status: 400,
    title: "The entitlement is not an anonymous try",
  },
  "anonymous_try.already_converted": {
    code: 6713,
    status: 409,
    title: "The anonymous try was already converted",
  },
  "anonymous_try.invalid_conversion_target": {
    code: 6714,
    status: 400,
    title: "An anonymous try cannot convert to this entitlement",
  },
  "anonymous_try.not_convertible_on_registration": {
    code: 6715,
    status: 400,
    title: "The anonymous try's offer issues no entitlement on registration",
  },
} as const satisfies Record<string, { code: number; status: number; title: string }>;

export type CodeName = keyof typeof errorCatalog;

export type FieldIssue = { path: string; message: string };

/** The one error type of the service; everything a caller can get wrong is one of these. */
export class AppError extends Error {
  readonly codeName: CodeName;
  readonly issues?: FieldIssue[];
  readonly headers?: Record<string, string>;

  constructor(
    codeName: CodeName,
    detail?: string,
    options?: { issues?: FieldIssue[]; headers?: Record<string, string> },
  ) {
    super(detail ?? errorCatalog[codeName].title);
    this.name = "AppError";
    this.codeName = codeName;
    this.issues = options?.issues;
    this.headers = options?.headers;
  }

  get status(): number {
    return errorCatalog[this.codeName].status;
  }

  get code(): number {
    return errorCatalog[this.codeName].code;
  }
}

export const notFound = (what = "Resource") => new AppError("license.not_found", `${what} not found.`);
export const validationError = (detail: string, issues?: FieldIssue[]) =>
  new AppError("license.validation_error", detail, { issues });
