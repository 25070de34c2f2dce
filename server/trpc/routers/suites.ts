import { z } from "zod";
import { router, staffProcedure } from "../init.ts";
import { ZListQuery, ZPage } from "../../http/pagination.ts";
import {
  ZSuiteCreateRequest, ZSuiteIdParams, ZSuiteMemberParams, ZSuiteMembersRequest, ZSuiteResponse, ZSuiteUpdateRequest,
} from "../../domain/catalog/suite.schemas.ts";
import { listSuites } from "../../domain/catalog/list-suites.ts";
import { getSuite } from "../../domain/catalog/get-suite.ts";
import { createSuite } from "../../domain/catalog/create-suite.ts";
import { updateSuite } from "../../domain/catalog/update-suite.ts";
import { deleteSuite } from "../../domain/catalog/delete-suite.ts";
import { setSuiteMembers } from "../../domain/catalog/set-suite-members.ts";
import { deleteSuiteMember } from "../../domain/catalog/delete-suite-member.ts";
import { searchPricingProducts, suiteBalanceMetrics } from "../../domain/catalog/pricing-options.ts";

const ZSuiteListInput = ZListQuery.extend({ includeImplicit: z.boolean().default(false) });

export const suitesRouter = router({
  list: staffProcedure.input(ZSuiteListInput).output(ZPage(ZSuiteResponse)).query(({ ctx, input }) => listSuites(ctx.domain, input)),

  get: staffProcedure.input(ZSuiteIdParams).output(ZSuiteResponse).query(({ ctx, input }) => getSuite(ctx.domain, input.suiteId)),

  create: staffProcedure.input(ZSuiteCreateRequest).output(ZSuiteResponse).mutation(({ ctx, input }) => createSuite(ctx.domain, input)),

  update: staffProcedure
    .input(ZSuiteIdParams.extend({ patch: ZSuiteUpdateRequest }))
    .output(ZSuiteResponse)
    .mutation(({ ctx, input }) => updateSuite(ctx.domain, input.suiteId, input.patch)),

  delete: staffProcedure.input(ZSuiteIdParams).mutation(({ ctx, input }) => deleteSuite(ctx.domain, input.suiteId)),

  setMembers: staffProcedure
    .input(ZSuiteIdParams.extend(ZSuiteMembersRequest.shape))
    .output(ZSuiteResponse)
    .mutation(({ ctx, input }) => setSuiteMembers(ctx.domain, input.suiteId, { productIds: input.productIds })),

  removeMember: staffProcedure
    .input(ZSuiteMemberParams)
    .mutation(({ ctx, input }) => deleteSuiteMember(ctx.domain, input.suiteId, input.productId.toLowerCase())),

  productOptions: staffProcedure
    .input(z.object({ term: z.string().max(100).default("") }))
    .query(({ ctx, input }) => searchPricingProducts(ctx.domain, input.term)),

  balanceMetrics: staffProcedure.input(ZSuiteIdParams).query(({ ctx, input }) => suiteBalanceMetrics(ctx.domain, input.suiteId)),
});
