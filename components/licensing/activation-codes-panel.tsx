"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { TActivationCodeResponse } from "@/server/domain/entitlements/activation-code.schemas";
import { useTRPC } from "../trpc-provider";
import { DataTable, Pager, nextSort, sortOrderOf, type Column, type SortState } from "../data-table";
import { ConfirmDialog } from "../confirm-dialog";
import { CopyButton } from "../copy-button";
import { Field } from "../field";
import { ProblemAlert } from "../problem-alert";
import { problemFrom } from "../problem";
import { formatDateTime } from "../format";
import { sieveFilter, sieveValue } from "../sieve";

const PAGE_SIZE = 20;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Activation codes: issue (following the entitlement's keyIssuancePolicy), copy, revoke. With
 * `entitlementId` the panel shows that entitlement's codes only (the entitlement page embeds it).
 */
export function ActivationCodesPanel({ entitlementId: fixedEntitlementId }: { entitlementId?: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [entitlementFilter, setEntitlementFilter] = useState("");
  const [status, setStatus] = useState("");
  const [sort, setSort] = useState<SortState>({ field: "createdAt", descending: true });
  const [pageNumber, setPageNumber] = useState(1);
  const [issueFor, setIssueFor] = useState(fixedEntitlementId ?? "");
  const [count, setCount] = useState("1");
  const [deviceLimit, setDeviceLimit] = useState("");
  const [issued, setIssued] = useState<TActivationCodeResponse[]>([]);
  const [revoking, setRevoking] = useState<TActivationCodeResponse | null>(null);

  const entitlementId = fixedEntitlementId ?? (UUID.test(entitlementFilter.trim()) ? entitlementFilter.trim() : "");
  const list = useQuery({
    ...trpc.licensing.listActivationCodes.queryOptions({
      filter: sieveFilter(entitlementId && `entitlementId==${sieveValue(entitlementId)}`, status && `status==${status}`),
      sortOrder: sortOrderOf(sort),
      pageNumber,
      pageSize: PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.licensing.listActivationCodes.pathKey() });
  const issue = useMutation(
    trpc.licensing.issueActivationCodes.mutationOptions({
      onSuccess: async (result) => {
        setIssued(result.codes);
        await refresh();
      },
    }),
  );
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
      entitlementId: issueFor.trim(),
      count: Number(count) || 1,
      deviceLimit: deviceLimit.trim() ? Number(deviceLimit) : null,
    });
  }

  const columns: Column<TActivationCodeResponse>[] = [
    {
      key: "code", header: "Code", sortField: "code",
      render: (c) => (
        <span className="row-actions">
          <code data-testid="activation-code">{c.code}</code>
          <CopyButton value={c.code} />
        </span>
      ),
    },
    ...(fixedEntitlementId ? [] : [{ key: "entitlement", header: "Entitlement", render: (c: TActivationCodeResponse) => <a href={`/admin/entitlements/${c.entitlementId}`}><code className="small">{c.entitlementId}</code></a> }]),
    {
      key: "status", header: "Status", sortField: "status",
      render: (c) => <span className={`badge${c.status === "Revoked" ? " badge-muted" : ""}`}>{c.status}</span>,
    },
    { key: "devices", header: "Devices", align: "right", render: (c) => `${c.devicesInUse} / ${c.deviceLimit ?? "∞"}` },
    { key: "sequence", header: "Seq.", sortField: "sequenceNumber", align: "right", render: (c) => c.sequenceNumber ?? "—" },
    { key: "created", header: "Issued", sortField: "createdAt", render: (c) => formatDateTime(c.createdAt) },
    {
      key: "actions", header: "",
      render: (c) =>
        c.status === "Revoked" ? (
          <span className="muted small">revoked {formatDateTime(c.revokedAt)}</span>
        ) : (
          <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => { revoke.reset(); setRevoking(c); }}>Revoke</button>
        ),
    },
  ];

  return (
    <>
      <form className="panel form" onSubmit={submit} aria-label="Issue activation codes">
        {fixedEntitlementId ? null : (
          <Field label="Entitlement id" htmlFor="issue-entitlement">
            <input id="issue-entitlement" value={issueFor} onChange={(e) => setIssueFor(e.target.value)} placeholder="uuid" required />
          </Field>
        )}
        <Field label="Count" htmlFor="issue-count">
          <input id="issue-count" type="number" min={1} max={100} value={count} onChange={(e) => setCount(e.target.value)} />
        </Field>
        <Field label="Device limit per code" htmlFor="issue-device-limit" hint="Empty = no per-code limit.">
          <input id="issue-device-limit" type="number" min={1} value={deviceLimit} onChange={(e) => setDeviceLimit(e.target.value)} />
        </Field>
        <button type="submit" className="btn btn-primary" disabled={issue.isPending}>{issue.isPending ? "Issuing…" : "Issue codes"}</button>
      </form>
      <ProblemAlert problem={problemFrom(issue.error)} />
      {issued.length ? (
        <div className="panel" role="status" data-testid="issued-codes">
          <strong>Issued {issued.length} code{issued.length === 1 ? "" : "s"}:</strong>
          <ul>
            {issued.map((c) => (
              <li key={c.id} className="row-actions"><code>{c.code}</code> <CopyButton value={c.code} /></li>
            ))}
          </ul>
          {issued.length > 1 ? <CopyButton value={issued.map((c) => c.code).join("\n")} label="Copy all" /> : null}
        </div>
      ) : null}

      <div className="toolbar">
        {fixedEntitlementId ? null : (
          <input
            type="search"
            aria-label="Filter by entitlement id"
            placeholder="Entitlement id…"
            value={entitlementFilter}
            onChange={(e) => { setEntitlementFilter(e.target.value); setPageNumber(1); }}
          />
        )}
        <select aria-label="Status" value={status} onChange={(e) => { setStatus(e.target.value); setPageNumber(1); }}>
          <option value="">All statuses</option>
          <option value="Active">Active</option>
          <option value="Revoked">Revoked</option>
        </select>
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <DataTable
        caption="Activation codes"
        columns={columns}
        rows={list.data?.items ?? []}
        rowKey={(c) => c.id}
        sort={sort}
        onSort={(field) => { setSort(nextSort(sort, field)); setPageNumber(1); }}
        loading={list.isLoading}
        empty="No activation codes yet."
      />
      <Pager page={list.data} onPage={setPageNumber} />
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
        <p>The code will admit no new activation. Devices already activated with it keep running until you reset or block them.</p>
      </ConfirmDialog>
    </>
  );
}
