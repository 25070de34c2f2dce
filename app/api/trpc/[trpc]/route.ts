import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/trpc/root";
import { trpcContext } from "@/server/trpc/init";
import { currentSession } from "@/server/auth/session";
import { BODY_LIMITS, cappedBodyOrProblem } from "@/server/http/body";
import { databaseUnavailableError, isDatabaseUnavailable } from "@/server/db/errors";
import { problemResponse } from "@/server/http/problem";
import { logger } from "@/server/log";
import { MAX_TRPC_BATCH_SIZE } from "@/server/trpc/limits";

// GET, POST /api/trpc/{procedure}: the UI's only data path (docs/architecture.md section 1).
async function handler(req: Request) {
  // The session decides the body cap: without one, a body can only carry a sign-in's worth.
  let session;
  try {
    session = await currentSession();
  } catch (error) {
    // Reading the signed-in user needs the database: while it is away the answer is 503, not a bug.
    if (!isDatabaseUnavailable(error)) throw error;
    logger.warn({ err: error, route: "trpc" }, "database unavailable");
    return problemResponse(databaseUnavailableError(), new URL(req.url).pathname);
  }
  let request = req;
  if (req.method === "POST") {
    const body = await cappedBodyOrProblem(req, session ? BODY_LIMITS.large : BODY_LIMITS.anonymous, "json");
    if ("problem" in body) return body.problem;
    request = new Request(req.url, { method: req.method, headers: req.headers, body: body.text });
  }
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req: request,
    router: appRouter,
    createContext: () => trpcContext(session, req.headers),
    maxBatchSize: MAX_TRPC_BATCH_SIZE,
    // A call refused because the database is away says when to try again, as REST routes do.
    responseMeta: ({ errors }) =>
      errors.some((e) => e.code === "SERVICE_UNAVAILABLE") ? { headers: { "retry-after": "1" } } : {},
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR")
        logger.error({ err: error.cause ?? error, route: `trpc:${path}` }, "unhandled tRPC error");
    },
  });
}

export { handler as GET, handler as POST };
