"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { TActivationCodeResponse } from "@/server/domain/licensing/activation-codes/activation-code.schemas";
import { useTRPC } from "../shell/trpc-provider";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatCountOf } from "../ui/format";
import { sieveValue } from "../ui/sieve";
import { useListState } from "../ui/use-list-state";
import { ListTable, SelectFilter } from "../ui/list-controls";
import { EntitlementPicker, useEntitlementNames } from "../entitlements/pickers";
import { ExportCsvLink } from "../operations/export-link";
import { activationCodeColumns } from "./activation-code-columns";
import { IssueCodesForm } from "./issue-codes-form";

/**
 * Activation codes: issue (following the entitlement's keyIssuancePolicy), copy, revoke. With
 * `entitlementId` the panel shows that entitlement's codes only (the entitlement page embeds it).
 */
export function ActivationCodesPanel({ entitlementId: fixedEntitlementId }: { entitlementId?: string }) {
  const trpc = useTRPC();
  /** The entitlement whose codes show: the page's, or the one picked in the filter. */
  const entitlementId = (picked: string) => fixedEntitlementId ?? picked;
  const queryClient = useQueryClient();
  const view = useListState({
    // The entitlement page shows its codes beside other lists.
    key: fixedEntitlementId ? "codes" : undefined,
    filters: { entitlementId: "", status: "" },
    sort: { field: "createdAt", descending: true },
    terms: (f) => [
      entitlementId(f.entitlementId) && `entitlementId==${sieveValue(entitlementId(f.entitlementId))}`,
      f.status && `status==${f.status}`,
    ],
  });
  const [selected, setSelected] = useState<string[]>([]);
  const [bulkRevoking, setBulkRevoking] = useState(false);
  const [revoking, setRevoking] = useState<TActivationCodeResponse | null>(null);

  const list = useQuery({
    ...trpc.licensing.listActivationCodes.queryOptions(view.query),
    placeholderData: keepPreviousData,
  });
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.licensing.listActivationCodes.pathKey() });
  const names = useEntitlementNames(
    fixedEntitlementId ? [] : (list.data?.items ?? []).map((c) => c.entitlementId),
  );
  const bulkRevoke = useMutation({
    mutationFn: async (ids: string[]) => {
      // One call per code, in order: each is its own audited revocation, and a refusal stops the rest.
      for (const id of ids) await revokeOne.mutateAsync({ code: id });
    },
    onSuccess: async () => {
      setSelected([]);
      setBulkRevoking(false);
      await refresh();
    },
  });
  const revokeOne = useMutation(trpc.licensing.revokeActivationCode.mutationOptions());
  const revoke = useMutation(
    trpc.licensing.revokeActivationCode.mutationOptions({
      onSuccess: async () => {
        setRevoking(null);
        await refresh();
      },
    }),
  );

  const active = (list.data?.items ?? []).filter((c) => c.status !== "Revoked");
  const columns = activationCodeColumns({
    selected,
    onSelect: setSelected,
    entitlementNames: fixedEntitlementId ? null : names,
    onRevoke: (c) => {
      revoke.reset();
      setRevoking(c);
    },
  });

  return (
    <>
      <IssueCodesForm entitlementId={fixedEntitlementId} onIssued={refresh} />

      <div className="toolbar">
        <ExportCsvLink list="activation-codes" query={view.query} pending={view.pending} />
        {fixedEntitlementId ? null : (
          <EntitlementPicker
            label="Filter by entitlement"
            value={view.values.entitlementId}
            onChange={(id) => view.set("entitlementId", id)}
          />
        )}
        <SelectFilter
          view={view}
          name="status"
          label="Status"
          any="All statuses"
          options={["Active", "Revoked"]}
        />
        <label className="checkbox">
          <input
            type="checkbox"
            checked={active.length > 0 && active.every((c) => selected.includes(c.id))}
            disabled={!active.length}
            onChange={(e) => setSelected(e.target.checked ? active.map((c) => c.id) : [])}
          />{" "}
          Select all active codes on this page
        </label>
      </div>
      {selected.length ? (
        <div className="toolbar" role="region" aria-label="Selection">
          <strong>{selected.length} selected</strong>
          <button
            type="button"
            className="btn btn-small btn-danger-ghost"
            onClick={() => {
              bulkRevoke.reset();
              setBulkRevoking(true);
            }}
          >
            Revoke selected
          </button>
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setSelected([])}>
            Clear selection
          </button>
        </div>
      ) : null}
      <ProblemAlert problem={problemFrom(list.error)} />
      <ListTable
        view={view}
        list={list}
        caption="Activation codes"
        columns={columns}
        rowKey={(c) => c.id}
        empty={view.isFiltered ? "No activation code matches this filter." : "No activation codes yet."}
      />
      <ConfirmDialog
        open={bulkRevoking}
        title={`Revoke ${formatCountOf(selected.length, "code")}?`}
        confirmLabel={`Revoke ${formatCountOf(selected.length, "code")}`}
        danger
        busy={bulkRevoke.isPending}
        problem={problemFrom(bulkRevoke.error)}
        onCancel={() => setBulkRevoking(false)}
        onConfirm={() => bulkRevoke.mutate(selected)}
      >
        <p>
          The selected codes will admit no new activation. Devices already activated with them keep running.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={revoking !== null}
        title={revoking ? `Revoke ${revoking.code}?` : "Revoke code"}
        confirmLabel="Revoke code"
        danger
        busy={revoke.isPending}
        problem={problemFrom(revoke.error)}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && revoke.mutate({ code: revoking.id })}
      >
        <p>
          The code will admit no new activation. Devices already activated with it keep running until you
          reset or block them.
        </p>
      </ConfirmDialog>
    </>
  );
}
