"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { TActivationCodeResponse } from "@/server/domain/licensing/activation-codes/activation-code.schemas";
import { useTRPC } from "../shell/trpc-provider";
import type { Column } from "../ui/data-table";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { CopyButton } from "../ui/copy-button";
import { Field } from "../ui/field";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { sieveValue } from "../ui/sieve";
import { useListState } from "../ui/use-list-state";
import { ListTable, SelectFilter } from "../ui/list-controls";
import Link from "next/link";
import { CustomerPicker, EntitlementPicker, useEntitlementNames } from "../entitlements/pickers";
import { ExportCsvLink } from "../operations/export-link";

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
  const [issueFor, setIssueFor] = useState(fixedEntitlementId ?? "");
  const [customerId, setCustomerId] = useState("");
  const [selected, setSelected] = useState<string[]>([]);
  const [bulkRevoking, setBulkRevoking] = useState(false);
  const [count, setCount] = useState("1");
  const [deviceLimit, setDeviceLimit] = useState("");
  const [issued, setIssued] = useState<TActivationCodeResponse[]>([]);
  const [revoking, setRevoking] = useState<TActivationCodeResponse | null>(null);

  const list = useQuery({
    ...trpc.licensing.listActivationCodes.queryOptions(view.query),
    placeholderData: keepPreviousData,
  });
  const refresh = () =>
    queryClient.invalidateQueries({ queryKey: trpc.licensing.listActivationCodes.pathKey() });
  const issue = useMutation(
    trpc.licensing.issueActivationCodes.mutationOptions({
      onSuccess: async (result) => {
        setIssued(result.codes);
        await refresh();
      },
    }),
  );
  const customerEntitlements = useQuery({
    ...trpc.entitlements.list.queryOptions({
      pageNumber: 1,
      pageSize: 100,
      filter: `customerId==${customerId}`,
      sortOrder: "name",
    }),
    enabled: Boolean(customerId) && !fixedEntitlementId,
  });
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

  function submit(event: FormEvent) {
    event.preventDefault();
    issue.reset();
    setIssued([]);
    issue.mutate({
      entitlementId: issueFor,
      count: Number(count) || 1,
      deviceLimit: deviceLimit.trim() ? Number(deviceLimit) : null,
    });
  }

  const active = (list.data?.items ?? []).filter((c) => c.status !== "Revoked");
  const columns: Column<TActivationCodeResponse>[] = [
    {
      key: "select",
      header: "",
      render: (c) =>
        c.status === "Revoked" ? null : (
          <input
            type="checkbox"
            aria-label={`Select ${c.code}`}
            checked={selected.includes(c.id)}
            onChange={(e) =>
              setSelected(e.target.checked ? [...selected, c.id] : selected.filter((id) => id !== c.id))
            }
          />
        ),
    },
    {
      key: "code",
      header: "Code",
      sortField: "code",
      render: (c) => (
        <span className="row-actions">
          <code data-testid="activation-code">{c.code}</code>
          <CopyButton value={c.code} />
        </span>
      ),
    },
    ...(fixedEntitlementId
      ? []
      : [
          {
            key: "entitlement",
            header: "Entitlement",
            render: (c: TActivationCodeResponse) => (
              <Link href={`/admin/entitlements/${c.entitlementId}`}>
                {names.get(c.entitlementId) ?? "entitlement"}
              </Link>
            ),
          },
        ]),
    {
      key: "status",
      header: "Status",
      sortField: "status",
      render: (c) => (
        <span className={`badge${c.status === "Revoked" ? " badge-muted" : ""}`}>{c.status}</span>
      ),
    },
    {
      key: "devices",
      header: "Devices",
      align: "right",
      render: (c) => `${c.devicesInUse} / ${c.deviceLimit ?? "∞"}`,
    },
    {
      key: "sequence",
      header: "Seq.",
      sortField: "sequenceNumber",
      align: "right",
      render: (c) => c.sequenceNumber ?? "—",
    },
    { key: "created", header: "Issued", sortField: "createdAt", render: (c) => formatDateTime(c.createdAt) },
    {
      key: "actions",
      header: "",
      render: (c) =>
        c.status === "Revoked" ? (
          <span className="muted small">revoked {formatDateTime(c.revokedAt)}</span>
        ) : (
          <button
            type="button"
            className="btn btn-small btn-danger-ghost"
            onClick={() => {
              revoke.reset();
              setRevoking(c);
            }}
          >
            Revoke
          </button>
        ),
    },
  ];

  return (
    <>
      <form className="panel form" onSubmit={submit} aria-label="Issue activation codes">
        {fixedEntitlementId ? null : (
          <>
            <CustomerPicker
              label="Customer"
              value={customerId}
              onChange={(id) => {
                setCustomerId(id);
                setIssueFor("");
              }}
            />
            {customerId ? (
              <Field label="Entitlement" htmlFor="issue-entitlement">
                <select id="issue-entitlement" value={issueFor} onChange={(e) => setIssueFor(e.target.value)}>
                  <option value="">
                    {customerEntitlements.data?.items.length === 0
                      ? "This customer has no entitlements yet"
                      : "Choose an entitlement"}
                  </option>
                  {(customerEntitlements.data?.items ?? []).map((e) => (
                    <option key={e.id} value={e.id}>
                      {e.name}
                    </option>
                  ))}
                </select>
              </Field>
            ) : (
              <EntitlementPicker label="Entitlement" value={issueFor} onChange={setIssueFor} />
            )}
          </>
        )}
        <Field label="Count" htmlFor="issue-count">
          <input
            id="issue-count"
            type="number"
            min={1}
            max={100}
            value={count}
            onChange={(e) => setCount(e.target.value)}
          />
        </Field>
        <Field label="Device limit per code" htmlFor="issue-device-limit" hint="Empty = no per-code limit.">
          <input
            id="issue-device-limit"
            type="number"
            min={1}
            value={deviceLimit}
            onChange={(e) => setDeviceLimit(e.target.value)}
          />
        </Field>
        <button type="submit" className="btn btn-primary" disabled={issue.isPending || !issueFor}>
          {issue.isPending ? "Issuing…" : "Issue codes"}
        </button>
      </form>
      <ProblemAlert problem={problemFrom(issue.error)} />
      {issued.length ? (
        <div className="panel" role="status" data-testid="issued-codes">
          <strong>
            Issued {issued.length} code{issued.length === 1 ? "" : "s"}:
          </strong>
          <ul>
            {issued.map((c) => (
              <li key={c.id} className="row-actions">
                <code>{c.code}</code> <CopyButton value={c.code} />
              </li>
            ))}
          </ul>
          {issued.length > 1 ? (
            <CopyButton value={issued.map((c) => c.code).join("\n")} label="Copy all" />
          ) : null}
        </div>
      ) : null}

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
        title={`Revoke ${selected.length} code${selected.length === 1 ? "" : "s"}?`}
        confirmLabel={`Revoke ${selected.length} code${selected.length === 1 ? "" : "s"}`}
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
