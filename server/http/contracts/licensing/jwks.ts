import { anonymous } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import { ZJwks, ZJwksParams } from "../../../domain/identity/tenant-jwks.ts";

export const tenantJwksContract = defineContract({
  method: "GET",
  path: "/api/v1/provision/tenants/{tenantId}/jwks.json",
  tag: "Licensing",
  summary: "The tenant's public keys (JWKS) that verify license tokens and offline artifacts",
  auth: anonymous,
  params: ZJwksParams,
  response: ZJwks,
  errors: ["license.not_found"],
});
