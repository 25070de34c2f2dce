import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import { clientScope } from "../../auth.ts";
import { defineContract } from "../../contract.ts";
import {
  ZCustomerIdParams,
  ZCustomerOrganizationCreateRequest,
  ZCustomerOrganizationResponse,
  ZCustomerOrganizationUpdateRequest,
  ZCustomerUserCreateRequest,
  ZCustomerUserResponse,
  ZCustomerUserUpdateRequest,
} from "../../../domain/customers/customer.schemas.ts";

const users = "/api/v1/provision/admin/customers/users";
const orgs = "/api/v1/provision/admin/customers/organizations";
const common = ["auth.unauthenticated", "auth.insufficient_scope"] as const;
const Tag = "Customers";

export const listCustomerUsersContract = defineContract({
  method: "GET",
  path: users,
  tag: Tag,
  summary: "List customer users",
  auth: clientScope("customer"),
  query: ZListQuery,
  response: ZPage(ZCustomerUserResponse),
  errors: [...common, "license.validation_error"],
});
export const createCustomerUserContract = defineContract({
  method: "POST",
  path: users,
  tag: Tag,
  summary:
    "Create a customer user (emits User.Created when the user is a customer); a Consumer customer gets an entitlement from every Published offer with issueOnUserRegistration, and `anonymousTryId` converts the device's try to the one its offer issued",
  auth: clientScope("customer"),
  body: ZCustomerUserCreateRequest,
  response: ZCustomerUserResponse,
  status: 201,
  errors: [
    ...common,
    "license.validation_error",
    "license.not_found",
    "idempotency.key_reused",
    "anonymous_try.not_anonymous_try",
    "anonymous_try.already_converted",
    "anonymous_try.not_convertible_on_registration",
    "entitlement.archived",
  ],
});
export const getCustomerUserContract = defineContract({
  method: "GET",
  path: `${users}/{id}`,
  tag: Tag,
  summary: "Read a customer user",
  auth: clientScope("customer"),
  params: ZCustomerIdParams,
  response: ZCustomerUserResponse,
  errors: [...common, "license.not_found"],
});
export const updateCustomerUserContract = defineContract({
  method: "PATCH",
  path: `${users}/{id}`,
  tag: Tag,
  summary: "Change a customer user (merge; User.Updated with changedFields; nothing when nothing changed)",
  auth: clientScope("customer"),
  params: ZCustomerIdParams,
  body: ZCustomerUserUpdateRequest,
  response: ZCustomerUserResponse,
  errors: [...common, "license.validation_error", "license.not_found", "idempotency.key_reused"],
});
export const deleteCustomerUserContract = defineContract({
  method: "DELETE",
  path: `${users}/{id}`,
  tag: Tag,
  summary: "Remove a customer user (User.Deleted); refused while entitlements are assigned to it",
  auth: clientScope("customer"),
  params: ZCustomerIdParams,
  status: 204,
  errors: [...common, "license.not_found", "customer.in_use"],
});

export const listCustomerOrganizationsContract = defineContract({
  method: "GET",
  path: orgs,
  tag: Tag,
  summary: "List customer organizations",
  auth: clientScope("customer"),
  query: ZListQuery,
  response: ZPage(ZCustomerOrganizationResponse),
  errors: [...common, "license.validation_error"],
});
export const createCustomerOrganizationContract = defineContract({
  method: "POST",
  path: orgs,
  tag: Tag,
  summary: "Create an organization (Organization.Created)",
  auth: clientScope("customer"),
  body: ZCustomerOrganizationCreateRequest,
  response: ZCustomerOrganizationResponse,
  status: 201,
  errors: [...common, "license.validation_error", "license.not_found", "idempotency.key_reused"],
});
export const getCustomerOrganizationContract = defineContract({
  method: "GET",
  path: `${orgs}/{id}`,
  tag: Tag,
  summary: "Read an organization",
  auth: clientScope("customer"),
  params: ZCustomerIdParams,
  response: ZCustomerOrganizationResponse,
  errors: [...common, "license.not_found"],
});
export const updateCustomerOrganizationContract = defineContract({
  method: "PATCH",
  path: `${orgs}/{id}`,
  tag: Tag,
  summary:
    "Change an organization (merge; Organization.Updated with changedFields; invoice details send nothing)",
  auth: clientScope("customer"),
  params: ZCustomerIdParams,
  body: ZCustomerOrganizationUpdateRequest,
  response: ZCustomerOrganizationResponse,
  errors: [...common, "license.validation_error", "license.not_found", "idempotency.key_reused"],
});
export const deleteCustomerOrganizationContract = defineContract({
  method: "DELETE",
  path: `${orgs}/{id}`,
  tag: Tag,
  summary: "Remove an organization (Organization.Deleted); refused while it has entitlements or members",
  auth: clientScope("customer"),
  params: ZCustomerIdParams,
  status: 204,
  errors: [...common, "license.not_found", "customer.in_use"],
});
