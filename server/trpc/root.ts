import { router } from "./init.ts";
import { tagsRouter } from "./routers/tags.ts";
import { clientsRouter } from "./routers/clients.ts";
import { meRouter } from "./routers/me.ts";

export const appRouter = router({
  tags: tagsRouter,
  clients: clientsRouter,
  me: meRouter,
});

export type AppRouter = typeof appRouter;
