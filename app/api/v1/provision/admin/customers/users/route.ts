import { route } from "@/server/http/route";
import {
  createCustomerUserContract,
  listCustomerUsersContract,
} from "@/server/http/contracts/customers/customers";
import { createCustomerUser, listCustomerUsers } from "@/server/domain/customers/customer-users";

// GET /api/v1/provision/admin/customers/users
export const GET = route(listCustomerUsersContract, ({ ctx, query }) => listCustomerUsers(ctx, query));

// POST /api/v1/provision/admin/customers/users
export const POST = route(createCustomerUserContract, ({ ctx, body }) => createCustomerUser(ctx, body));
