/**
 * The domain's cross-tenant entry points, named in one place. Everything else in server/domain is
 * tenant-scoped work and takes a `DomainContext` first (docs/architecture.md section 3); the functions below
 * take the process database because they start before any tenant is known, or serve every tenant
 * at once. Each one narrows to a tenant (a `tenantDb` or a tenant filter in its SQL) as soon as it
 * knows one.
 */

/** Activation names no tenant: the normalized code is unique across the service (docs/architecture.md section 5). */
export { findActivationCodeByInput } from "./licensing/activation-codes/find-activation-code.ts";
/**
 * The anonymous activation endpoints: the code (or the signed-in user's token) names the tenant,
 * then the decision runs tenant-scoped (`decideActivation`). The session calls that follow
 * (renew, check-in, release) carry a license token and take a `DomainContext` like everything else.
 */
export { activateForLicense, activateForToken } from "./licensing/activation/activation-responses.ts";
/** The worker's sweep of sessions whose grace has passed, over every tenant in bounded batches. */
export { sweepExpiredLeases } from "./licensing/sessions/sweep-expired-leases.ts";
/**
 * The worker's webhook engine, over every tenant (docs/architecture.md section 7): the dispatcher that drains
 * envelopes not fanned out, the delivery pump's claim and its batch record of 2xx attempts, the
 * sweep and capture retention. One delivery's send and its failure record are tenant-scoped
 * (`attemptDelivery(ctx, …)`, `recordAttempt(ctx, …)`), re-exported here for the pump beside them.
 */
export { dispatchEnvelopes, DISPATCH_BATCH_SIZE } from "./webhooks/events/fan-out.ts";
export { claimDueDeliveries, type ClaimedDelivery } from "./webhooks/delivery/claim-deliveries.ts";
export {
  attemptDelivery,
  nextAttemptAfter,
  recordAttempt,
  recordSucceededAttempts,
  type AttemptResult,
} from "./webhooks/delivery/deliver.ts";
export { sweepDeliveries } from "./webhooks/delivery/sweep-deliveries.ts";
export { enforceCaptureRetention } from "./webhooks/delivery/capture-retention.ts";
/** The worker's purge of anonymous tries past their purge date, over every tenant. */
export { purgeAnonymousTries } from "./entitlements/anonymous-try/purge-anonymous-tries.ts";
/** An anonymous try names no tenant: the offer id does, as an activation code does for activation. */
export { issueAnonymousTry } from "./licensing/anonymous-try/issue-anonymous-try.ts";
/** The worker's metering jobs: scheduled auto-balances and the consume idempotency-key sweep, over every tenant. */
export { runAutoBalances } from "./metering/auto-balance/run-auto-balances.ts";
export { sweepConsumeKeys } from "./metering/consumption/sweep-consume-keys.ts";
/** A tenant is created before it exists; the token endpoint learns the tenant from the client id. */
export { createTenant } from "./identity/create-tenant.ts";
export { issueToken } from "./identity/issue-token.ts";
/**
 * Operations (docs/operations.md): the platform's backlog gauges for `GET /api/metrics`, and the
 * refusal counters the web process flushes for every tenant whose runtime calls were refused.
 */
export { readPlatformGauges } from "./operations/platform-gauges.ts";
export {
  countRefusal,
  delegateRefusalFlush,
  flushRefusals,
  setRefusalDb,
} from "./operations/refusal-counts.ts";
