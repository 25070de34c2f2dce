import type { CodeName } from "@/server/core/errors";

/**
 * One plain sentence per problem `codeName` of the error catalog (server/core/errors.ts): what
 * happened and how to fix it, in words a back-office user or a customer reads (GOV.UK's
 * error-message guidance). A page shows these instead of the catalog's code or title; the typed
 * record makes a new codeName without a sentence a type error, and the unit test
 * (tests/unit/ui/message-catalogue.test.ts) fails on it too.
 */
export const problemSentences: Record<CodeName, string> = {
  "internal.error":
    "Something went wrong on our side. Try again in a moment; if it keeps happening, contact support.",
  "auth.unauthenticated": "Your session has ended. Sign in again to continue.",
  "auth.insufficient_scope": "Your access does not include this action. Ask an owner to grant it.",
  "auth.forbidden": "You are not allowed to do this. Ask an owner if you need access.",
  "auth.current_password_wrong": "Your current password is not right. Enter the password you sign in with.",
  "idempotency.key_reused":
    "This request was already sent with different details. Start again from the form.",
  "concurrency.revision_mismatch":
    "Someone else changed this while you were editing. The latest version is loaded; make your change again.",
  "request.unsupported_media_type":
    "The file or request format is not supported. Use the format the form asks for.",
  "request.payload_too_large": "What you sent is too large. Send less at once or use a smaller file.",
  "staff.permission_denied":
    "Your role does not allow this action. Ask an owner to do it or to change your role.",
  "staff.scope_beyond_role": "You chose permissions beyond your own role. Remove them and try again.",
  "staff.last_owner": "The team must keep at least one active owner. Make someone else an owner first.",
  "request.rate_limited": "Too many requests in a short time. Wait a minute and try again.",
  "service.unavailable": "The service is briefly unavailable. Try again in a few seconds.",

  "license.validation_error": "Some values need correcting. Check the highlighted fields and try again.",
  "license.not_found":
    "We could not find this item. It may have been deleted; go back to the list and reload it.",
  "license.conflict": "This clashes with something that already exists. Change the values and try again.",
  "license.session_token_rejected": "The license session is no longer valid. Activate the license again.",
  "license.no_active_session": "There is no active session for this license. Activate it first.",
  "license.forbidden_by_policy":
    "The license's policy does not allow this. Change the policy or use another license.",
  "license.product_end_of_life":
    "Every product on this license has reached its end of life. Choose a current product.",
  "license.activations_disabled":
    "Activations are turned off for this license. Turn them on before activating.",
  "license.not_yet_valid": "This license is not valid yet. Wait for its start date or change the validity.",
  "license.expired": "This license has expired. Renew it to continue.",
  "license.trial_expired": "The trial has ended. Choose a paid plan to continue.",
  "license.subscription_lapsed":
    "The subscription behind this license has lapsed. Renew the subscription to continue.",
  "license.ip_not_allowed":
    "This address is outside the license's allowed ranges. Use an allowed network or change the ranges.",
  "license.product_code_required": "Choose which product to use with this license.",
  "license.product_not_licensed":
    "This product is not part of the license. Choose a product the license includes.",
  "license.device_signature_invalid":
    "The device identification has the wrong length. Check it and try again.",
  "license.device_not_registered":
    "This device is not registered for the license. Register the device first.",
  "license.device_blocked": "This device is blocked. Unblock it before using it.",
  "license.no_seat_available": "Every seat is in use. Release a seat or add seats, then try again.",
  "license.device_limit_reached":
    "This activation code has reached its device limit. Release a device or use another code.",
  "license.activation_code_required": "Enter the activation code to continue.",
  "license.user_authentication_required": "This license needs a signed-in user. Sign in and try again.",
  "license.metric_not_tracked":
    "This license does not track that usage. Choose a metric the license includes.",

  "tag.name_taken": "A tag with this name already exists. Choose another name or use the existing tag.",
  "tag.scope_mismatch": "These tags belong to different kinds of items. Choose tags of the same kind.",
  "tag.merge_into_self": "A tag cannot be merged into itself. Choose a different tag to merge into.",

  "product.code_taken": "Another product already uses this code and version. Change the code or the version.",
  "product.locked": "This product is locked. Unlock it before making changes.",
  "product.invalid_status_transition":
    "The product cannot move to that status from its current one. Choose one of the offered statuses.",
  "product.in_use": "This product is still used elsewhere. Remove it from those places first.",
  "product.feature_already_attached":
    "This feature is already on the product. Edit the existing feature instead.",
  "feature.code_taken": "Another feature already uses this code. Choose a different code.",
  "feature.invalid_lifecycle_transition":
    "The feature cannot move to that stage from its current one. Choose one of the offered stages.",
  "feature.in_use": "This feature is still used by products or plans. Remove it from them first.",
  "feature.not_attachable":
    "This feature cannot be added to a product in its current stage. Activate it first.",
  "asset.metric_taken": "Another monitored asset already uses this metric name. Choose a different name.",
  "asset.balance_in_use": "Metering still draws on this balance. Stop the usage that uses it first.",
  "asset.in_use": "Metering still draws on this monitored asset. Stop the usage that uses it first.",

  "report.invalid_period": "The report period is not valid. Choose a start date before the end date.",
  "report.too_many_buckets":
    "The period has too many intervals to chart. Choose a shorter period or a larger interval.",

  "suite.code_taken": "Another suite already uses this code. Choose a different code.",
  "suite.in_use": "This suite still has plan sets or add-ons. Archive or move them first.",
  "plan_set.archived": "Archived plan sets cannot be changed. Create a new revision instead.",
  "plan_set.status_change_through_edit":
    "Change the plan set's status with its status action, not in the editor.",
  "plan_set.invalid_status_transition":
    "The plan set cannot move to that status from its current one. Choose one of the offered statuses.",
  "plan_set.not_publishable":
    "This plan set cannot be published yet. Make sure it has at least one valid plan.",
  "add_on.code_taken": "Another add-on already uses this code. Choose a different code.",
  "add_on.archived": "Archived add-ons cannot be changed.",
  "add_on.delete_refused": "This add-on has been used, so it cannot be deleted. Archive it instead.",

  "catalog.empty_selection": "Nothing is selected to export. Choose at least one item.",
  "catalog.unsupported_format_version":
    "This snapshot file comes from an unsupported version. Export it again from a current system.",
  "catalog.unknown_apply_keys":
    "Some chosen items are not in the snapshot. Choose items from the snapshot's list.",
  "license.user_not_verified":
    "Your account has not been verified by the vendor yet. Ask the vendor to approve it, then activate again.",
  "usage.amount_exceeds_ceiling":
    "One usage record or batch reports more than this metric allows at once. Split it into smaller batches or ask the vendor to raise the limit.",
  "usage.meter_limit_exceeded":
    "This usage would take the meter past the largest amount it can hold. Nothing was recorded; contact the vendor.",
  "catalog.import_too_large":
    "The import took too long to finish. Split the snapshot into smaller parts and try again.",

  "subscription.not_applicable": "This action does not apply to this webhook subscription.",
  "subscription.invalid_url": "The receiver address is not valid. Enter a full https address.",
  "subscription.invalid_filter": "This filter can never match an event. Change the filter.",
  "subscription.invalid_event_type": "An event type is not valid. Choose event types from the list.",
  "subscription.invalid_state":
    "The webhook subscription's current state does not allow this. Change its state first.",
  "subscription.invalid_callback_scope": "A callback permission is not allowed. Remove it and try again.",
  "subscription.invalid_secret": "The signing secret is not valid. Generate a new secret.",
  "replay.invalid_selection": "The replay selection is not valid. Choose a time range or events to replay.",
  "replay.rate_limited": "Too many replays at once. Wait a while and try again.",
  "delivery.ambiguous_envelope":
    "This message matched several webhook subscriptions. Choose one subscription.",
  "delivery.not_dead_lettered": "Only failed deliveries can be retried. This delivery has not failed.",
  "subscription.callback_scope_not_granted":
    "You cannot grant a callback permission your own access does not include. Remove it.",
  "subscription.send_rate_limited": "Too many test messages for this webhook. Wait a minute and try again.",
  "client.not_integrator": "This API client is not an active integrator. Choose an active integrator client.",

  "usage.overloaded": "Usage uploads are busy. Try again in a few seconds.",
  "usage.batch_too_large": "Too many usage records at once. Send them in smaller batches.",
  "usage.rating_not_applicable": "No running rating campaign asks about this feature for this license.",

  "offer.not_published": "This offer is not published. Publish it first.",
  "offer.invalid_status_transition":
    "The offer cannot move to that status from its current one. Choose one of the offered statuses.",
  "offer.archived": "Archived offers cannot be changed.",
  "entitlement.archived": "Archived entitlements cannot be changed.",
  "entitlement.invalid_validity":
    "The validity dates do not work together. Make the end date later than the start date.",
  "entitlement.feature_not_modifiable": "This feature's value cannot be changed on an entitlement.",
  "entitlement.no_plan": "This entitlement has no plan. Assign a plan first.",
  "plan.not_found": "That plan is not in the plan set. Choose one of the plan set's plans.",
  "plan.plan_set_not_published": "The plan set is not published. Publish it before assigning its plans.",
  "plan_change.already_reviewed": "This plan change has already been reviewed. Reload to see the decision.",
  "plan_change.pending_exists":
    "A plan change is already waiting for review. Wait for it or withdraw it first.",
  "billing.unknown_provider": "That billing provider is not known. Choose a provider from the list.",
  "billing.subscription_reference_taken":
    "Another billing record already uses this subscription reference. Check the reference.",
  "billing.not_manual": "This billing record is managed by its provider. Change it in the provider instead.",
  "add_on_grant.suite_mismatch":
    "This add-on belongs to a different suite than the entitlement's plan. Choose an add-on of the same suite.",
  "add_on_grant.add_on_archived": "Archived add-ons cannot be granted. Choose an active add-on.",
  "add_on_grant.already_revoked": "This grant was already revoked.",
  "customer.in_use": "This customer still has entitlements. Move or archive them first.",

  "activation_code.issuance_disabled":
    "Activation codes cannot be issued for this entitlement. Turn issuance on first.",
  "activation_code.collision_retry_exhausted":
    "No free activation code could be found. Try again, or change the code template.",
  "activation_code.sequence_exhausted":
    "The activation code template has run out of codes. Lengthen the template.",
  "activation_code.revoked": "This activation code has been revoked. Use another code.",
  "balance.insufficient_credits": "There are not enough credits on the balance. Add credits or use fewer.",
  "balance.unlimited": "This balance has unlimited credits, so it cannot be changed by an amount.",
  "balance.consumer_grant_not_allowed":
    "Customers may not add credits to this entitlement. Ask the vendor to add them.",
  "balance.consumer_grant_limit_exceeded":
    "That is more credits than you may add yourself. Add fewer, or ask the vendor for more.",
  "balance.limit_exceeded": "The balance would go over its largest allowed amount. Use a smaller amount.",
  "entitlement.not_renewable": "This entitlement cannot be renewed.",
  "entitlement.renewal_shortens": "A renewal cannot move the end date earlier. Choose a later end date.",
  "anonymous_try.not_allowed": "This offer does not allow trying without signing up.",
  "anonymous_try.already_used": "This device has already used its free try of this offer.",
  "anonymous_try.not_anonymous_try": "This entitlement is not an anonymous try.",
  "anonymous_try.already_converted": "This anonymous try was already converted.",
  "anonymous_try.invalid_conversion_target":
    "An anonymous try cannot be converted into this entitlement. Choose another one.",
  "anonymous_try.not_convertible_on_registration":
    "This try's offer does not issue an entitlement on sign-up, so it cannot be converted.",
};
