import type { DomainContext } from "../../context.ts";
import type { Prisma } from "../../../db/generated/client.ts";
import { now } from "../../../clock.ts";
import type { Page, TListQuery } from "../../../core/pagination.ts";
import { COUNT_BEYOND_PAGE, listPage } from "../../../db/list-page.ts";
import type { SieveWhitelist } from "../../../db/sieve-where.ts";
import { revocationReasons } from "../devices/device.schemas.ts";
import {
  activeSessionWhere,
  notYetValidEntitlementIds,
  sessionInclude,
  toSessionResponses,
  type TSessionResponse,
} from "./session-read-model.ts";

/**
 * Filterable and sortable fields of the session lists. `isActive` is not stored: it is translated
 * into the stored fields it is computed from, at the time of the request (filter only).
 */
export function sessionSieve(at: Date, notYetValid: string[]): SieveWhitelist {
  return {
    id: { type: "uuid", sortable: false },
    entitlementId: { type: "uuid" },
    deviceId: { type: "uuid" },
    deviceFingerprintHash: { type: "string", column: "device.fingerprintHash" },
    deviceName: { type: "string", nullable: true },
    processId: { type: "string", nullable: true },
    activationCodeId: { type: "uuid", nullable: true },
    activationKind: { type: "enum", values: ["Online", "Offline"] },
    activatedByUserId: { type: "uuid", nullable: true },
    revocationReason: { type: "enum", values: revocationReasons },
    activatedAt: { type: "date" },
    leaseExpiresAt: { type: "date" },
    graceExpiresAt: { type: "date" },
    seatHeldUntil: { type: "date" },
    validUntil: { type: "date", nullable: true },
    lastContactAt: { type: "date", nullable: true },
    revokedAt: { type: "date", nullable: true },
    isActive: {
      type: "boolean",
      sortable: false,
      toWhere: (op, value) => {
        const active = activeSessionWhere(at, notYetValid);
        const wanted = (value ?? "").toLowerCase() === "true";
        return (op === "==") === wanted ? active : { NOT: active };
      },
    },
  };
}

/**
 * One page of sessions within `scope` (a where the caller's rule sets), filtered and sorted by the
 * query (on `fields` only, when given); newest activation first by default.
 */
export async function pageOfSessions(
  ctx: DomainContext,
  query: TListQuery,
  scope: Prisma.LicenseSessionWhereInput,
  fields?: readonly string[],
): Promise<Page<TSessionResponse>> {
  const at = now();
  const notYetValid =
    query.filter && /isactive/i.test(query.filter) ? await notYetValidEntitlementIds(ctx.db, at) : [];
  const all = sessionSieve(at, notYetValid);
  const whitelist = fields ? Object.fromEntries(fields.map((f) => [f, all[f]])) : all;
  return listPage(
    query,
    {
      sieve: whitelist,
      where: scope,
      defaultOrder: [{ activatedAt: "desc" }],
      findMany: (args) => ctx.db.licenseSession.findMany({ ...args, include: sessionInclude }),
      count: (args) => ctx.db.licenseSession.count(args),
      countBeyondPage: COUNT_BEYOND_PAGE,
    },
    (rows) => toSessionResponses(ctx.db, rows, at),
  );
}

/** GET /admin/sessions/activations: every session of the tenant, filterable. */
export async function listSessions(ctx: DomainContext, query: TListQuery): Promise<Page<TSessionResponse>> {
  return pageOfSessions(ctx, query, {});
}
