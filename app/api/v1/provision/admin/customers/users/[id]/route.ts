import { route } from "@/server/http/route";
import {
  deleteCustomerUserContract,
  getCustomerUserContract,
  updateCustomerUserContract,
} from "@/server/http/contracts/customers/customers";
import {
  deleteCustomerUser,
  getCustomerUser,
  updateCustomerUser,
} from "@/server/domain/customers/customer-users";

// GET /api/v1/provision/admin/customers/users/{id}
export const GET = route(getCustomerUserContract, ({ ctx, params }) => getCustomerUser(ctx, params.id));

// PATCH /api/v1/provision/admin/customers/users/{id}
export const PATCH = route(updateCustomerUserContract, ({ ctx, params, body }) =>
  updateCustomerUser(ctx, params.id, body),
);

// DELETE /api/v1/provision/admin/customers/users/{id}
export const DELETE = route(deleteCustomerUserContract, ({ ctx, params }) =>
  deleteCustomerUser(ctx, params.id),
);
