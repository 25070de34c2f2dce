import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/trpc/root";
import { createTrpcContext } from "@/server/trpc/init";
import { logger } from "@/server/log";

// GET, POST /api/trpc/{procedure}: the UI's only data path (DESIGN.md section 1).
function handler(req: Request) {
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: createTrpcContext,
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") logger.error({ err: error.cause ?? error, route: `trpc:${path}` }, "unhandled tRPC error");
    },
  });
}

export { handler as GET, handler as POST };
