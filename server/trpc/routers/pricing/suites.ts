import { z } from "zod";
import { router, staffProcedure } from "../../init.ts";
import { ZListQuery, ZPage } from "../../../core/pagination.ts";
import {
  ZSuiteCreateRequest,
  ZSuiteIdParams,
  ZSuiteMemberParams,
  ZSuiteMembersRequest,
  ZSuiteResponse,
  ZSuiteUpdateRequest,
} from "../../../domain/pricing/suites/suite.schemas.ts";
import { listSuites } from "../../../domain/pricing/suites/list-suites.ts";
import { getSuite } from "../../../domain/pricing/suites/get-suite.ts";
import { createSuite } from "../../../domain/pricing/suites/create-suite.ts";
import { updateSuite } from "../../../domain/pricing/suites/update-suite.ts";
import { deleteSuite } from "../../../domain/pricing/suites/delete-suite.ts";
import { setSuiteMembers } from "../../../domain/pricing/suites/set-suite-members.ts";
import { deleteSuiteMember } from "../../../domain/pricing/suites/delete-suite-member.ts";
import { searchPricingProducts, suiteBalanceMetrics } from "../../../domain/pricing/pricing-options.ts";

const ZSuiteListInput = ZListQuery.extend({ includeImplicit: z.boolean().default(false) });

export const suitesRouter = router({
  list: staffProcedure("catalog")
    .input(ZSuiteListInput)
    .output(ZPage(ZSuiteResponse))
    .query(({ ctx, input }) => listSuites(ctx.domain, input)),

  get: staffProcedure("catalog")
    .input(ZSuiteIdParams)
    .output(ZSuiteResponse)
    .query(({ ctx, input }) => getSuite(ctx.domain, input.suiteId)),

  create: staffProcedure("catalog")
    .input(ZSuiteCreateRequest)
    .output(ZSuiteResponse)
    .mutation(({ ctx, input }) => createSuite(ctx.domain, input)),

  update: staffProcedure("catalog")
    .input(ZSuiteIdParams.extend({ patch: ZSuiteUpdateRequest }))
    .output(ZSuiteResponse)
    .mutation(({ ctx, input }) => updateSuite(ctx.domain, input.suiteId, input.patch)),

  delete: staffProcedure("catalog")
    .input(ZSuiteIdParams)
    .mutation(({ ctx, input }) => deleteSuite(ctx.domain, input.suiteId)),

  setMembers: staffProcedure("catalog")
    .input(ZSuiteIdParams.extend(ZSuiteMembersRequest.shape))
    .output(ZSuiteResponse)
    .mutation(({ ctx, input }) =>
      setSuiteMembers(ctx.domain, input.suiteId, { productIds: input.productIds }),
    ),

  removeMember: staffProcedure("catalog")
    .input(ZSuiteMemberParams)
    .mutation(({ ctx, input }) =>
      deleteSuiteMember(ctx.domain, input.suiteId, input.productId.toLowerCase()),
    ),

  productOptions: staffProcedure("catalog")
    .input(z.object({ term: z.string().max(100).default("") }))
    .query(({ ctx, input }) => searchPricingProducts(ctx.domain, input.term)),

  balanceMetrics: staffProcedure("catalog")
    .input(ZSuiteIdParams)
    .query(({ ctx, input }) => suiteBalanceMetrics(ctx.domain, input.suiteId)),
});
