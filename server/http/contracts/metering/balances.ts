import { ZEntitlementIdParams } from "../../../domain/entitlements/entitlement/entitlement.schemas.ts";
import { clientScope, consumer } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import {
  ZBalanceAmountRequest,
  ZBalanceMutationResponse,
  ZBalanceParams,
  ZBalanceSetRequest,
  ZConsumerCreditGrantRequest,
} from "../../../domain/metering/balances/balance-mutation.schemas.ts";

const base = "/api/v1/provision/operational/entitlements/{id}/balances/{metricName}";
const errors = [
  "auth.unauthenticated",
  "auth.insufficient_scope",
  "license.validation_error",
  "license.not_found",
  "balance.unlimited",
  "idempotency.key_reused",
] as const;

export const depositBalanceContract = defineContract({
  method: "POST",
  path: `${base}/deposit`,
  tag: "Balances",
  summary:
    "Deposit credits: remaining + amount becomes totalCredits, creditsUsed restarts at 0 (Idempotency-Key honoured 24 h)",
  auth: clientScope("balance"),
  params: ZBalanceParams,
  body: ZBalanceAmountRequest,
  response: ZBalanceMutationResponse,
  errors: [...errors, "balance.limit_exceeded"],
});

export const withdrawBalanceContract = defineContract({
  method: "POST",
  path: `${base}/withdraw`,
  tag: "Balances",
  summary:
    "Withdraw credits from the remaining balance; refused when more than remains (Idempotency-Key honoured 24 h)",
  auth: clientScope("balance"),
  params: ZBalanceParams,
  body: ZBalanceAmountRequest,
  response: ZBalanceMutationResponse,
  errors: [...errors, "balance.insufficient_credits"],
});

export const setBalanceContract = defineContract({
  method: "POST",
  path: `${base}/set`,
  tag: "Balances",
  summary:
    "Set the remaining balance: totalCredits = amount, creditsUsed = 0 (Idempotency-Key honoured 24 h)",
  auth: clientScope("balance"),
  params: ZBalanceParams,
  body: ZBalanceSetRequest,
  response: ZBalanceMutationResponse,
  errors: [...errors],
});

export const grantConsumerCreditsContract = defineContract({
  method: "POST",
  path: "/api/v1/provision/consumer/me/entitlements/{id}/credit-grants",
  tag: "Consumer",
  summary:
    "Grant credits to a balance of one of the signed-in user's entitlements, when its offer allows consumersMayGrantCredits (Idempotency-Key honoured 24 h)",
  auth: consumer,
  params: ZEntitlementIdParams,
  body: ZConsumerCreditGrantRequest,
  response: ZBalanceMutationResponse,
  errors: [
    "auth.unauthenticated",
    "license.validation_error",
    "license.not_found",
    "balance.unlimited",
    "balance.consumer_grant_not_allowed",
    "balance.limit_exceeded",
    "idempotency.key_reused",
  ],
});
