import { initTRPC, TRPCError, type TRPC_ERROR_CODE_KEY } from "@trpc/server";
import type { Session } from "next-auth";
import { z } from "zod";
import { db, type Db } from "../db/client.ts";
import { tenantDb } from "../db/tenant-db.ts";
import type { DomainContext } from "../domain/context.ts";
import { AppError, validationError } from "../core/errors.ts";
import { toProblem, type Problem } from "../http/problem.ts";
import { zodIssues } from "../core/zod-issues.ts";
import { randomUUID } from "node:crypto";
import { runAudited, type AuditContext } from "../db/audit-context.ts";
import { databaseUnavailableError, isDatabaseUnavailable } from "../db/errors.ts";
import { now } from "../clock.ts";
import {
  hasPermission,
  type Access,
  type PermissionFamily,
  type StaffPermission,
} from "../domain/identity/staff-roles/staff-roles.ts";

/**
 * What a staff procedure declares: the permission family it belongs to, and its access when it
 * is not the one its kind implies (a query reads, a mutation writes; an export that changes
 * nothing is a read).
 */
export type ProcedureMeta = { family?: PermissionFamily; access?: Access };

export type TrpcContext = { session: Session | null; db: Db; headers?: Headers };

/**
 * Context of every tRPC call: the next-auth session (if any, read once per request), the
 * process-wide client, and the request's headers (the caller's address for sign-in back-off).
 */
export function trpcContext(session: Session | null, headers: Headers = new Headers()): TrpcContext {
  return { session, db: db(), headers };
}

const codeByStatus: Record<number, TRPC_ERROR_CODE_KEY> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  429: "TOO_MANY_REQUESTS",
  503: "SERVICE_UNAVAILABLE",
};

/** Duck-typed so an AppError from another module instance (dev reloads) is still recognised. */
function isAppError(error: unknown): error is AppError {
  return (
    error instanceof AppError || (error instanceof Error && error.name === "AppError" && "codeName" in error)
  );
}

/** The problem+json a form shows: the domain's AppError, or a validation problem for bad input. */
function problemOf(error: TRPCError, instance: string): Problem | null {
  if (isAppError(error.cause)) return toProblem(error.cause, instance);
  if (error.cause instanceof z.ZodError) {
    const issues = zodIssues(error.cause, "");
    return toProblem(
      validationError(
        `Invalid input: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ")}`,
        issues,
      ),
      instance,
    );
  }
  return null;
}

const t = initTRPC
  .context<TrpcContext>()
  .meta<ProcedureMeta>()
  .create({
    errorFormatter({ shape, error, path }) {
      const problem = problemOf(error, `/api/trpc/${path ?? ""}`);
      const internal = error.code === "INTERNAL_SERVER_ERROR";
      return {
        ...shape,
        // A bug's message stays in the server log; the browser gets a plain sentence.
        message: internal
          ? "An unexpected error occurred; it has been logged."
          : (problem?.detail ?? shape.message),
        data: { ...shape.data, stack: undefined, problem },
      };
    },
  });

/** Domain functions throw AppError; the caller sees it with the matching tRPC code (409 → CONFLICT). */
const mapDomainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && !isAppError(result.error.cause) && isDatabaseUnavailable(result.error)) {
    // The database is restarting or unreachable: not a bug, the same call succeeds shortly.
    const cause = databaseUnavailableError();
    throw new TRPCError({ code: "SERVICE_UNAVAILABLE", message: cause.message, cause });
  }
  if (!result.ok && isAppError(result.error.cause)) {
    const cause = result.error.cause;
    throw new TRPCError({
      code: codeByStatus[cause.status] ?? "INTERNAL_SERVER_ERROR",
      message: cause.message,
      cause,
    });
  }
  return result;
});

export const router = t.router;
export const publicProcedure = t.procedure.use(mapDomainErrors);

/**
 * Every mutation of a signed-in user runs as audited work (server/db/audit-context.ts): the rows it
 * changes are written to the audit trail in the same transaction, named by the procedure's path.
 */
export const signedInProcedure = publicProcedure.use(({ ctx, type, path, next }) => {
  if (!ctx.session) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in first." });
  const session = ctx.session;
  if (type !== "mutation") return next({ ctx: { session } });
  const audit = {
    actorKind: "user",
    actorId: session.userId,
    actorLabel: session.email,
    source: "trpc",
    operation: path,
    correlationId: randomUUID(),
    at: now().toISOString(),
  } as const;
  return runAudited(audit, async () => {
    const result = await next({ ctx: { session } });
    // A streamed mutation (catalog import) does its work while the stream is read: keep it audited.
    if (result.ok && isAsyncIterable(result.data))
      return { ...result, data: auditedStream(audit, result.data) };
    return result;
  });
});

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === "object" && value !== null && Symbol.asyncIterator in value;
}

async function* auditedStream(audit: AuditContext, stream: AsyncIterable<unknown>) {
  const iterator = stream[Symbol.asyncIterator]();
  for (;;) {
    const step = await runAudited(audit, () => iterator.next());
    if (step.done) return step.value as unknown;
    yield step.value;
  }
}

/** The permission a staff procedure needs: its family, read for queries and write for mutations. */
export function permissionOf(meta: ProcedureMeta | undefined, type: string): StaffPermission | null {
  if (!meta?.family) return null;
  return `${meta.family}.${meta.access ?? (type === "query" ? "read" : "write")}`;
}

/**
 * Back-office procedures: only vendor staff. The domain context is scoped to the staff user's
 * tenant, so every query of the procedure sees that tenant's rows only.
 */
const staffBase = signedInProcedure.use(({ ctx, meta, type, next }) => {
  if (ctx.session.kind !== "staff")
    throw new TRPCError({ code: "FORBIDDEN", message: "The back office is for vendor staff." });
  // Fails closed: a staff procedure that declares no family is refused to every role.
  const permission = permissionOf(meta, type);
  if (!permission || !hasPermission(ctx.session.staffRole, permission)) {
    throw new TRPCError({
      code: "FORBIDDEN",
      message: "Your role does not allow this.",
      cause: new AppError("staff.permission_denied", `Your role does not allow ${permission ?? "this"}.`),
    });
  }
  const domain: DomainContext = {
    tenantId: ctx.session.tenantId,
    actor: { kind: "user", id: ctx.session.userId, staffRole: ctx.session.staffRole },
    db: tenantDb(ctx.db, ctx.session.tenantId),
  };
  return next({ ctx: { tenantId: ctx.session.tenantId, domain } });
});

/**
 * Back-office procedures of one permission family (server/domain/identity/staff-roles): the role
 * of the signed-in staff user (read fresh on every request, server/auth/session.ts) must hold
 * `<family>.read` for a query and `<family>.write` for a mutation, unless `access` says otherwise.
 */
export const staffProcedure = (family: PermissionFamily, access?: Access) =>
  staffBase.meta({ family, access });

/** Portal procedures: only the vendor's customers' end users. */
export const consumerProcedure = signedInProcedure.use(({ ctx, next }) => {
  if (ctx.session.kind !== "consumer")
    throw new TRPCError({ code: "FORBIDDEN", message: "The portal is for customers' users." });
  const domain: DomainContext = {
    tenantId: ctx.session.tenantId,
    actor: { kind: "user", id: ctx.session.userId },
    db: tenantDb(ctx.db, ctx.session.tenantId),
  };
  return next({ ctx: { tenantId: ctx.session.tenantId, domain } });
});
