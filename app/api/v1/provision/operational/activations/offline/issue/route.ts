import { route } from "@/server/http/route";
import { issueOfflineActivationContract } from "@/server/http/contracts/licensing/offline-activations";
import { issueOfflineActivation } from "@/server/domain/licensing/offline/issue-offline-activation";

// POST /api/v1/provision/operational/activations/offline/issue
export const POST = route(issueOfflineActivationContract, ({ ctx, body }) =>
  issueOfflineActivation(ctx, body),
);
