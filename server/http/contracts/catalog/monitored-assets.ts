import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import { clientScope } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import {
  ZAssetBalanceParams,
  ZMonitoredAssetIdParams,
  ZMonitoredAssetResponse,
  ZMonitoredAssetUpdateRequest,
} from "../../../domain/catalog/monitored-assets/monitored-asset.schemas.ts";

const base = "/api/v1/provision/admin/monitored-assets";
const common = ["auth.unauthenticated", "auth.insufficient_scope"] as const;
const Tag = "Monitored assets";

export const listMonitoredAssetsContract = defineContract({
  method: "GET",
  path: base,
  tag: Tag,
  summary: "List monitored assets (products', entitlements' and offers')",
  auth: clientScope("monitored-asset"),
  query: ZListQuery,
  response: ZPage(ZMonitoredAssetResponse),
  errors: [...common, "license.validation_error"],
});

export const getMonitoredAssetContract = defineContract({
  method: "GET",
  path: `${base}/{id}`,
  tag: Tag,
  summary: "Read a monitored asset",
  auth: clientScope("monitored-asset"),
  params: ZMonitoredAssetIdParams,
  response: ZMonitoredAssetResponse,
  errors: [...common, "license.not_found"],
});

export const updateMonitoredAssetContract = defineContract({
  method: "PATCH",
  path: `${base}/{id}`,
  tag: Tag,
  summary:
    "Change a monitored asset (merge-PATCH; meteredUsage / balanceUsage merge or attach; clearMeteredUsage detaches)",
  auth: clientScope("monitored-asset"),
  params: ZMonitoredAssetIdParams,
  body: ZMonitoredAssetUpdateRequest,
  response: ZMonitoredAssetResponse,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "product.locked",
    "asset.metric_taken",
    "concurrency.revision_mismatch",
    "idempotency.key_reused",
  ],
});

export const deleteMonitoredAssetContract = defineContract({
  method: "DELETE",
  path: `${base}/{id}`,
  tag: Tag,
  summary: "Delete a monitored asset (a copy metering draws on is refused)",
  auth: clientScope("monitored-asset"),
  params: ZMonitoredAssetIdParams,
  status: 204,
  errors: [...common, "license.not_found", "product.locked", "asset.in_use"],
});

export const deleteAssetBalanceContract = defineContract({
  method: "DELETE",
  path: "/api/v1/provision/admin/asset-balances/{balanceId}",
  tag: Tag,
  summary:
    "Delete a balance: a product's always; a copy held by a Draft or Published entitlement or offer is refused (metering draws on it)",
  auth: clientScope("monitored-asset"),
  params: ZAssetBalanceParams,
  status: 204,
  errors: [...common, "license.not_found", "asset.balance_in_use"],
});
