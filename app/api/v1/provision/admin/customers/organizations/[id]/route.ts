import { route } from "@/server/http/route";
import {
  deleteCustomerOrganizationContract,
  getCustomerOrganizationContract,
  updateCustomerOrganizationContract,
} from "@/server/http/contracts/customers/customers";
import {
  deleteCustomerOrganization,
  getCustomerOrganization,
  updateCustomerOrganization,
} from "@/server/domain/customers/customer-organizations";

// GET /api/v1/provision/admin/customers/organizations/{id}
export const GET = route(getCustomerOrganizationContract, ({ ctx, params }) =>
  getCustomerOrganization(ctx, params.id),
);

// PATCH /api/v1/provision/admin/customers/organizations/{id}
export const PATCH = route(updateCustomerOrganizationContract, ({ ctx, params, body }) =>
  updateCustomerOrganization(ctx, params.id, body),
);

// DELETE /api/v1/provision/admin/customers/organizations/{id}
export const DELETE = route(deleteCustomerOrganizationContract, ({ ctx, params }) =>
  deleteCustomerOrganization(ctx, params.id),
);
