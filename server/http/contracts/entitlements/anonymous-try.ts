import { anonymous } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import {
  ZAnonymousTryRequest,
  ZAnonymousTryResponse,
} from "../../../domain/licensing/anonymous-try/anonymous-try.schemas.ts";
import { activateLicenseContract } from "../licensing/activations.ts";

export const anonymousTryContract = defineContract({
  method: "POST",
  path: "/api/v1/provision/activations/anonymous-try",
  tag: "Runtime",
  summary:
    "Anonymous try (anonymous): a device's trial of an offer with allowAnonymousTry, issued once per device and offer and activated; answers the activation, the try's activation code and its dates",
  auth: anonymous,
  body: ZAnonymousTryRequest,
  response: ZAnonymousTryResponse,
  errors: [
    ...activateLicenseContract.errors.filter((c) => c !== "license.activation_code_required"),
    "anonymous_try.not_allowed",
    "anonymous_try.already_used",
  ],
  // An anonymous try names an offer, not a code: only the caller's address is counted.
  rateLimits: ["activation.ip"],
});
