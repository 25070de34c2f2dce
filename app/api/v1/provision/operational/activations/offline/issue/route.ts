import { route } from "@/server/http/route";
import { db } from "@/server/db/client";
import { issueOfflineActivationContract } from "@/server/http/contracts/offline-activations";
import { issueOfflineActivation } from "@/server/domain/licensing/issue-offline-activation";

// POST /api/v1/provision/operational/activations/offline/issue
export const POST = route(issueOfflineActivationContract, ({ ctx, body }) => issueOfflineActivation(db(), ctx.tenantId, body));
