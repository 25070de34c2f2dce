import { z } from "zod";
import { router, staffProcedure } from "../../init.ts";
import {
  createClient,
  listClients,
  revokeClient,
  ZClientCreateRequest,
  ZClientResponse,
} from "../../../domain/identity/oauth-clients.ts";

// OAuth clients are identity records: their functions take the tenant explicitly, not a tenant-scoped db.
export const clientsRouter = router({
  list: staffProcedure("clients")
    .output(z.array(ZClientResponse))
    .query(({ ctx }) => listClients(ctx.domain)),

  /** Answers the secret once; only its hash is stored. */
  create: staffProcedure("clients")
    .input(ZClientCreateRequest)
    .output(z.object({ client: ZClientResponse, clientSecret: z.string() }))
    .mutation(({ ctx, input }) => createClient(ctx.domain, input)),

  revoke: staffProcedure("clients")
    .input(z.object({ id: z.string().min(1) }))
    .output(ZClientResponse)
    .mutation(({ ctx, input }) => revokeClient(ctx.domain, input.id)),
});
