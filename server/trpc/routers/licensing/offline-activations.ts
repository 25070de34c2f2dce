import { router, staffProcedure } from "../../init.ts";
import {
  ZOfflineActivationRequest,
  ZOfflineActivationResponse,
} from "../../../domain/licensing/offline/offline-artifact.schemas.ts";
import { issueOfflineActivation } from "../../../domain/licensing/offline/issue-offline-activation.ts";

/** Back office: the offline issue (the same domain function as POST /operational/activations/offline/issue). */
export const offlineActivationsRouter = router({
  issue: staffProcedure("offline")
    .input(ZOfflineActivationRequest)
    .output(ZOfflineActivationResponse)
    .mutation(({ ctx, input }) => issueOfflineActivation(ctx.domain, input)),
});
