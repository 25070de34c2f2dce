import { ZEntitlementIdParams } from "../../../domain/entitlements/entitlement/entitlement.schemas.ts";
import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import { clientScope } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import {
  ZBulkDeviceResetRequest,
  ZBulkDeviceResetResponse,
  ZDeviceBlockRequest,
  ZDevicePreRegisterRequest,
  ZDeviceResetResult,
  ZDeviceResponse,
  ZEntitlementDeviceParams,
} from "../../../domain/licensing/devices/device.schemas.ts";

const operational = "/api/v1/provision/operational/entitlements";
const common = ["auth.unauthenticated", "auth.insufficient_scope"] as const;

export const resetDevicesContract = defineContract({
  method: "POST",
  path: `${operational}/{id}/devices/reset`,
  tag: "Devices",
  summary:
    "Reset every device of an entitlement: sessions end at next contact, seats are freed, codes' device usage empties, transferCount + 1",
  auth: clientScope("device"),
  params: ZEntitlementIdParams,
  response: ZDeviceResetResult,
  errors: [...common, "license.validation_error", "license.not_found", "idempotency.key_reused"],
});

export const resetDevicesBulkContract = defineContract({
  method: "POST",
  path: `${operational}/devices/reset`,
  tag: "Devices",
  summary:
    "Reset the devices of several entitlements; one result per id, with `error` set where it was not reset",
  auth: clientScope("device"),
  body: ZBulkDeviceResetRequest,
  response: ZBulkDeviceResetResponse,
  errors: [...common, "license.validation_error", "idempotency.key_reused"],
});

export const blockDeviceContract = defineContract({
  method: "POST",
  path: `${operational}/{id}/devices/block`,
  tag: "Devices",
  summary: "Block a device (by fingerprint or deviceId): its activations end and no activation admits it",
  auth: clientScope("device", "update"),
  params: ZEntitlementIdParams,
  body: ZDeviceBlockRequest,
  response: ZDeviceResponse,
  errors: [...common, "license.validation_error", "license.not_found", "idempotency.key_reused"],
});

export const unblockDeviceContract = defineContract({
  method: "POST",
  path: `${operational}/{id}/devices/{deviceId}/unblock`,
  tag: "Devices",
  summary: "Lift a device's block; ended activations do not return",
  auth: clientScope("device", "update"),
  params: ZEntitlementDeviceParams,
  response: ZDeviceResponse,
  errors: [...common, "license.not_found", "idempotency.key_reused"],
});

export const listEntitlementDevicesContract = defineContract({
  method: "GET",
  path: "/api/v1/provision/admin/entitlements/{id}/devices",
  tag: "Devices",
  summary: "Devices of an entitlement with their unrevoked sessions",
  auth: clientScope("device"),
  params: ZEntitlementIdParams,
  query: ZListQuery,
  response: ZPage(ZDeviceResponse),
  errors: [...common, "license.validation_error", "license.not_found"],
});

export const preRegisterDeviceContract = defineContract({
  method: "POST",
  path: `${operational}/{id}/devices`,
  tag: "Devices",
  summary: "Pre-register a device by fingerprint (only its hash is kept); emits nothing",
  auth: clientScope("device"),
  params: ZEntitlementIdParams,
  body: ZDevicePreRegisterRequest,
  response: ZDeviceResponse,
  errors: [...common, "license.validation_error", "license.not_found", "idempotency.key_reused"],
});

export const removePreRegisteredDeviceContract = defineContract({
  method: "DELETE",
  path: `${operational}/{id}/devices/{deviceId}`,
  tag: "Devices",
  summary:
    "Withdraw a device's pre-registration (a device with history or a block keeps its record); emits nothing",
  auth: clientScope("device"),
  params: ZEntitlementDeviceParams,
  status: 204,
  errors: [...common, "license.not_found"],
});
