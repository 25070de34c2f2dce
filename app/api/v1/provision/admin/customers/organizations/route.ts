import { route } from "@/server/http/route";
import {
  createCustomerOrganizationContract,
  listCustomerOrganizationsContract,
} from "@/server/http/contracts/customers/customers";
import {
  createCustomerOrganization,
  listCustomerOrganizations,
} from "@/server/domain/customers/customer-organizations";

// GET /api/v1/provision/admin/customers/organizations
export const GET = route(listCustomerOrganizationsContract, ({ ctx, query }) =>
  listCustomerOrganizations(ctx, query),
);

// POST /api/v1/provision/admin/customers/organizations
export const POST = route(createCustomerOrganizationContract, ({ ctx, body }) =>
  createCustomerOrganization(ctx, body),
);
