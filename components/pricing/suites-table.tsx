"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import type { TSuiteResponse } from "@/server/domain/pricing/suites/suite.schemas";
import { useTRPC } from "../shell/trpc-provider";
import type { Column } from "../ui/data-table";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatCountOf, formatDateTime } from "../ui/format";
import { sieveValue } from "../ui/sieve";
import { useListState } from "../ui/use-list-state";
import { CheckboxFilter, ListTable, SearchFilter } from "../ui/list-controls";
import { SuiteFormDialog } from "./suite-form-dialog";
import { ExportCsvLink } from "../operations/export-link";

/** Suites: search, implicit ones on request, create, delete (what the suite owns shown first). */
export function SuitesTable() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const view = useListState({
    filters: { q: "", implicit: false },
    sort: { field: "name", descending: false },
    terms: (f) => [f.q && `name|code@=*${sieveValue(f.q)}`],
  });
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<TSuiteResponse | null>(null);
  const list = useQuery({
    ...trpc.suites.list.queryOptions({ ...view.query, includeImplicit: view.settled.implicit }),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation(
    trpc.suites.delete.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.suites.pathKey() });
        setDeleting(null);
      },
    }),
  );

  const columns: Column<TSuiteResponse>[] = [
    {
      key: "name",
      header: "Suite",
      sortField: "name",
      render: (s) => (
        <span className="tag-name">
          <Link href={`/admin/suites/${s.id}`}>{s.name}</Link>
          {s.isImplicit ? (
            <span className="badge badge-muted" title="Created when a single product was priced">
              implicit
            </span>
          ) : null}
        </span>
      ),
    },
    { key: "code", header: "Code", sortField: "code", render: (s) => <code>{s.code}</code> },
    {
      key: "members",
      header: "Members (sell order)",
      render: (s) =>
        s.members.length ? (
          s.members.map((m) => m.productName ?? m.productId).join(" → ")
        ) : (
          <span className="muted">none</span>
        ),
    },
    { key: "planSets", header: "Plan sets", align: "right", render: (s) => s.referencedBy.planSets },
    { key: "updated", header: "Updated", sortField: "updatedAt", render: (s) => formatDateTime(s.updatedAt) },
    {
      key: "actions",
      header: "",
      render: (s) => (
        <span className="row-actions">
          <Link className="btn btn-small" href={`/admin/suites/${s.id}`}>
            Open
          </Link>
          <button
            type="button"
            className="btn btn-small btn-danger-ghost"
            onClick={() => {
              remove.reset();
              setDeleting(s);
            }}
          >
            Delete
          </button>
        </span>
      ),
    },
  ];

  const owned = deleting ? deleting.referencedBy.planSets + deleting.referencedBy.addOns : 0;
  return (
    <>
      <div className="toolbar">
        <SearchFilter
          view={view}
          name="q"
          label="Filter by name or code"
          placeholder="Filter by name or code…"
        />
        <CheckboxFilter view={view} name="implicit">
          Show implicit suites
        </CheckboxFilter>
        <span className="toolbar-spacer" />
        <ExportCsvLink
          list="suites"
          query={view.query}
          pending={view.pending}
          extra={{ includeImplicit: view.settled.implicit }}
        />
        <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
          New suite
        </button>
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <ListTable
        view={view}
        list={list}
        caption="Suites"
        columns={columns}
        rowKey={(s) => s.id}
        empty={
          view.settled.q
            ? "No suite matches this filter."
            : "No suites yet. A suite sells products together and owns their plan sets."
        }
      />
      {creating ? (
        <SuiteFormDialog
          onClose={() => setCreating(false)}
          onCreated={(s) => router.push(`/admin/suites/${s.id}`)}
        />
      ) : null}
      <ConfirmDialog
        open={!!deleting}
        title={deleting ? `Delete suite “${deleting.name}”?` : "Delete suite"}
        confirmLabel="Delete suite"
        danger
        busy={remove.isPending}
        problem={problemFrom(remove.error)}
        onCancel={() => setDeleting(null)}
        onConfirm={() => deleting && remove.mutate({ suiteId: deleting.id })}
      >
        {deleting ? (
          <p data-testid="delete-references">
            {owned === 0
              ? "The suite owns no plan set and no add-on."
              : `The suite owns ${formatCountOf(deleting.referencedBy.planSets, "plan-set revision")} and ${formatCountOf(deleting.referencedBy.addOns, "add-on")}; a suite that owns any cannot be deleted.`}
          </p>
        ) : null}
      </ConfirmDialog>
    </>
  );
}
