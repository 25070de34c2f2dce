"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { TSessionResponse } from "@/server/domain/licensing/sessions/session-read-model";
import { useTRPC } from "../shell/trpc-provider";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { problemFrom } from "../ui/problem";

/** Asks before freeing one live session's seat, then refreshes every session and seat list. */
export function ReleaseSessionDialog({
  session,
  onClose,
}: {
  session: Pick<TSessionResponse, "id" | "deviceName" | "entitlementName"> | null;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const release = useMutation(
    trpc.sessions.release.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.sessions.pathKey() });
        onClose();
      },
    }),
  );
  const device = session?.deviceName ?? "this device";
  return (
    <ConfirmDialog
      open={session !== null}
      title={`Release the session of ${device}?`}
      confirmLabel="Release session"
      danger
      busy={release.isPending}
      problem={problemFrom(release.error)}
      onCancel={() => {
        release.reset();
        onClose();
      }}
      onConfirm={() => session && release.mutate({ sessionId: session.id })}
    >
      <p>
        The seat {session?.entitlementName ? `on ${session.entitlementName} ` : ""}is freed at once. The
        application is refused at its next check-in and must activate again.
      </p>
    </ConfirmDialog>
  );
}
