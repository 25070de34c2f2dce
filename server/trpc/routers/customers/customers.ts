import { router, staffProcedure } from "../../init.ts";
import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import {
  ZCustomerIdParams,
  ZCustomerOrganizationCreateRequest,
  ZCustomerOrganizationResponse,
  ZCustomerUserCreateRequest,
  ZCustomerUserResponse,
} from "../../../domain/customers/customer.schemas.ts";
import {
  createCustomerUser,
  deleteCustomerUser,
  listCustomerUsers,
} from "../../../domain/customers/customer-users.ts";
import {
  createCustomerOrganization,
  deleteCustomerOrganization,
  listCustomerOrganizations,
} from "../../../domain/customers/customer-organizations.ts";

export const customersRouter = router({
  users: staffProcedure("customers")
    .input(ZListQuery)
    .output(ZPage(ZCustomerUserResponse))
    .query(({ ctx, input }) => listCustomerUsers(ctx.domain, input)),
  createUser: staffProcedure("customers")
    .input(ZCustomerUserCreateRequest)
    .output(ZCustomerUserResponse)
    .mutation(({ ctx, input }) => createCustomerUser(ctx.domain, input)),
  deleteUser: staffProcedure("customers")
    .input(ZCustomerIdParams)
    .mutation(({ ctx, input }) => deleteCustomerUser(ctx.domain, input.id)),
  organizations: staffProcedure("customers")
    .input(ZListQuery)
    .output(ZPage(ZCustomerOrganizationResponse))
    .query(({ ctx, input }) => listCustomerOrganizations(ctx.domain, input)),
  createOrganization: staffProcedure("customers")
    .input(ZCustomerOrganizationCreateRequest)
    .output(ZCustomerOrganizationResponse)
    .mutation(({ ctx, input }) => createCustomerOrganization(ctx.domain, input)),
  deleteOrganization: staffProcedure("customers")
    .input(ZCustomerIdParams)
    .mutation(({ ctx, input }) => deleteCustomerOrganization(ctx.domain, input.id)),
});
