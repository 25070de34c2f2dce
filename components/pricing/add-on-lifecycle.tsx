"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { TAddOnResponse } from "@/server/domain/pricing/add-ons/add-on.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { problemFrom } from "../ui/problem";
import { formatCountOf } from "../ui/format";

/**
 * Archive and Delete of an add-on, each asking first with what refers to it: a Draft nobody holds
 * is deleted for good; once a grant exists (revoked and expired ones count) Delete offers Archive.
 */
export function AddOnLifecycle({ addOn }: { addOn: TAddOnResponse }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [action, setAction] = useState<"archive" | "delete" | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.addOns.pathKey() });
  const archive = useMutation(
    trpc.addOns.archive.mutationOptions({
      onSuccess: async () => {
        await refresh();
        setAction(null);
      },
    }),
  );
  const remove = useMutation(
    trpc.addOns.delete.mutationOptions({
      onSuccess: async () => {
        await refresh();
        router.push("/admin/add-ons");
      },
    }),
  );
  const refs = addOn.referencedBy ?? { entitlements: 0, offers: 0 };
  const deletable = addOn.status === "Draft" && refs.entitlements === 0 && refs.offers === 0;
  if (addOn.status === "Archived") return null;
  return (
    <div className="head-actions">
      <button
        type="button"
        className="btn"
        onClick={() => {
          archive.reset();
          setAction("archive");
        }}
      >
        Archive
      </button>
      <button
        type="button"
        className="btn btn-danger-ghost"
        onClick={() => {
          remove.reset();
          archive.reset();
          setAction("delete");
        }}
      >
        Delete
      </button>
      <ConfirmDialog
        open={action === "archive"}
        title={`Archive “${addOn.name}”?`}
        confirmLabel="Archive add-on"
        busy={archive.isPending}
        problem={problemFrom(archive.error)}
        onCancel={() => setAction(null)}
        onConfirm={() => archive.mutate({ addOnId: addOn.id })}
      >
        <p data-testid="archive-references">
          Held by {formatCountOf(refs.entitlements, "entitlement")} and {formatCountOf(refs.offers, "offer")}.
          Their grants stay; the add-on becomes read-only and cannot be granted anew.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={action === "delete"}
        title={`Delete “${addOn.name}”?`}
        confirmLabel={deletable ? "Delete add-on" : "Archive instead"}
        danger={deletable}
        busy={remove.isPending || archive.isPending}
        problem={problemFrom(remove.error) ?? problemFrom(archive.error)}
        onCancel={() => setAction(null)}
        onConfirm={() =>
          deletable ? remove.mutate({ addOnId: addOn.id }) : archive.mutate({ addOnId: addOn.id })
        }
      >
        <p data-testid="delete-references">
          Referenced by {formatCountOf(refs.entitlements, "entitlement")} and{" "}
          {formatCountOf(refs.offers, "offer")}.{" "}
          {deletable
            ? "No grant exists: the add-on is removed for good."
            : "Grants of it exist (revoked and expired ones count), so it cannot be deleted: archive it instead."}
        </p>
      </ConfirmDialog>
    </div>
  );
}
