import type { DomainContext } from "../../context.ts";
import { now } from "../../../clock.ts";
import type { TListQuery } from "../../../core/pagination.ts";
import { listPage } from "../../../db/list-page.ts";
import type { SieveWhitelist } from "../../../db/sieve-where.ts";
import { ratingCampaignInclude, toRatingCampaignResponses } from "./rating-campaign-response.ts";

/** The Prisma condition for "running now" (docs/api.md isRunning), so it can be filtered on. */
function runningWhere(at: Date) {
  return {
    isEnabled: true,
    AND: [
      { OR: [{ startsAt: null }, { startsAt: { lte: at } }] },
      { OR: [{ endsAt: null }, { endsAt: { gt: at } }] },
    ],
  };
}

export const ratingCampaignSieve: SieveWhitelist = {
  id: { type: "uuid", sortable: false },
  name: { type: "string" },
  description: { type: "string", nullable: true },
  isEnabled: { type: "boolean" },
  startsAt: { type: "date", nullable: true },
  endsAt: { type: "date", nullable: true },
  creationTimeStamp: { type: "date", column: "createdAt" },
  lastUpdateTimeStamp: { type: "date", column: "updatedAt" },
  revisionNumber: { type: "integer" },
  isRunning: {
    type: "boolean",
    sortable: false,
    toWhere: (op, value) => {
      const wantRunning = (value?.toLowerCase() === "true") === (op === "==");
      const running = runningWhere(now());
      return wantRunning ? running : { NOT: running };
    },
  },
  /** Campaigns targeting this catalog entry. */
  featureCatalogId: {
    type: "uuid",
    sortable: false,
    toWhere: (op, value) => {
      const some = { targets: { some: { featureCatalogId: value?.toLowerCase() } } };
      return op === "==" ? some : { NOT: some };
    },
  },
};

export async function listRatingCampaigns(ctx: DomainContext, query: TListQuery) {
  return listPage(
    query,
    {
      sieve: ratingCampaignSieve,
      defaultOrder: [{ createdAt: "desc" }],
      findMany: (args) => ctx.db.ratingCampaign.findMany({ ...args, include: ratingCampaignInclude }),
      count: (args) => ctx.db.ratingCampaign.count(args),
    },
    (rows) => toRatingCampaignResponses(ctx.db, rows),
  );
}
