import { z } from "zod";
import { router, staffProcedure } from "../init.ts";
import { createClient, listClients, revokeClient, ZClientCreateRequest, ZClientResponse } from "../../domain/identity/oauth-clients.ts";

// OAuth clients are identity records: their functions take the tenant explicitly, not a tenant-scoped db.
export const clientsRouter = router({
  list: staffProcedure.output(z.array(ZClientResponse)).query(({ ctx }) => listClients(ctx.db, ctx.tenantId)),

  /** Answers the secret once; only its hash is stored. */
  create: staffProcedure
    .input(ZClientCreateRequest)
    .output(z.object({ client: ZClientResponse, clientSecret: z.string() }))
    .mutation(({ ctx, input }) => createClient(ctx.db, ctx.tenantId, input)),

  revoke: staffProcedure
    .input(z.object({ id: z.string().min(1) }))
    .output(ZClientResponse)
    .mutation(({ ctx, input }) => revokeClient(ctx.db, ctx.tenantId, input.id)),
});
