import { initTRPC, TRPCError, type TRPC_ERROR_CODE_KEY } from "@trpc/server";
import type { Session } from "next-auth";
import { z } from "zod";
import { db, type Db } from "../db/client.ts";
import { tenantDb } from "../db/tenant-db.ts";
import type { DomainContext } from "../domain/context.ts";
import { AppError, validationError } from "../http/errors.ts";
import { toProblem, type Problem } from "../http/problem.ts";
import { zodIssues } from "../http/route.ts";
import { currentSession } from "../auth/session.ts";

export type TrpcContext = { session: Session | null; db: Db };

/** Context of every tRPC call: the next-auth session (if any) and the process-wide client. */
export async function createTrpcContext(): Promise<TrpcContext> {
  return { session: await currentSession(), db: db() };
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
};

/** Duck-typed so an AppError from another module instance (dev reloads) is still recognised. */
function isAppError(error: unknown): error is AppError {
  return error instanceof AppError || (error instanceof Error && error.name === "AppError" && "codeName" in error);
}

/** The problem+json a form shows: the domain's AppError, or a validation problem for bad input. */
function problemOf(error: TRPCError, instance: string): Problem | null {
  if (isAppError(error.cause)) return toProblem(error.cause, instance);
  if (error.cause instanceof z.ZodError) {
    const issues = zodIssues(error.cause, "");
    return toProblem(validationError(`Invalid input: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ")}`, issues), instance);
  }
  return null;
}

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape, error, path }) {
    const problem = problemOf(error, `/api/trpc/${path ?? ""}`);
    const internal = error.code === "INTERNAL_SERVER_ERROR";
    return {
      ...shape,
      // A bug's message stays in the server log; the browser gets a plain sentence.
      message: internal ? "An unexpected error occurred; it has been logged." : (problem?.detail ?? shape.message),
      data: { ...shape.data, stack: undefined, problem },
    };
  },
});

/** Domain functions throw AppError; the caller sees it with the matching tRPC code (409 → CONFLICT). */
const mapDomainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && isAppError(result.error.cause)) {
    const cause = result.error.cause;
    throw new TRPCError({ code: codeByStatus[cause.status] ?? "INTERNAL_SERVER_ERROR", message: cause.message, cause });
  }
  return result;
});

export const router = t.router;
export const publicProcedure = t.procedure.use(mapDomainErrors);

export const signedInProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.session) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in first." });
  return next({ ctx: { session: ctx.session } });
});

/**
 * Back-office procedures: only vendor staff. The domain context is scoped to the staff user's
 * tenant, so every query of the procedure sees that tenant's rows only.
 */
export const staffProcedure = signedInProcedure.use(({ ctx, next }) => {
  if (ctx.session.kind !== "staff") throw new TRPCError({ code: "FORBIDDEN", message: "The back office is for vendor staff." });
  const domain: DomainContext = {
    tenantId: ctx.session.tenantId,
    actor: { kind: "user", id: ctx.session.userId },
    db: tenantDb(ctx.db, ctx.session.tenantId),
  };
  return next({ ctx: { tenantId: ctx.session.tenantId, domain } });
});

/** Portal procedures: only the vendor's customers' end users. */
export const consumerProcedure = signedInProcedure.use(({ ctx, next }) => {
  if (ctx.session.kind !== "consumer") throw new TRPCError({ code: "FORBIDDEN", message: "The portal is for customers' users." });
  const domain: DomainContext = {
    tenantId: ctx.session.tenantId,
    actor: { kind: "user", id: ctx.session.userId },
    db: tenantDb(ctx.db, ctx.session.tenantId),
  };
  return next({ ctx: { tenantId: ctx.session.tenantId, domain } });
});
