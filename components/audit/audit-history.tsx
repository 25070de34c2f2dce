"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { TEntityHistoryQuery } from "@/server/domain/operations/entity-history";
import { useTRPC } from "../shell/trpc-provider";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatDateTime } from "../ui/format";
import { Pager } from "../ui/data-table";
import { AuditChanges } from "./audit-wording";
import "./audit.css";

/**
 * The History tab of a detail page: the audit trail of one record and the domain events its
 * changes emitted (seats taken and freed, devices reset), newest first, with who did it, what
 * happened in plain words, through which door and the field diff.
 */
export function AuditHistory({
  entityKind,
  entityId,
}: {
  /** Names the record's kind when the page knows it; otherwise every kind with a History is looked in. */
  entityKind?: TEntityHistoryQuery["entityKind"];
  entityId: string;
}) {
  const trpc = useTRPC();
  const [pageNumber, setPageNumber] = useState(1);
  const list = useQuery({
    ...trpc.audit.history.queryOptions({ entityKind, entityId, pageNumber, pageSize: 20 }),
    placeholderData: keepPreviousData,
  });
  if (list.error) return <ProblemAlert problem={problemFrom(list.error)} />;
  if (!list.data) return <p className="muted">Loading…</p>;
  if (!list.data.items.length) return <p className="muted">No history yet.</p>;
  return (
    <>
      <div className="table-wrap">
        <table className="table" aria-label="History">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Via</th>
              <th scope="col">Changes</th>
            </tr>
          </thead>
          <tbody>
            {list.data.items.map((e) => (
              <tr key={e.id}>
                <td className="nowrap">{formatDateTime(e.occurredAt)}</td>
                <td>{e.actor ?? <span className="muted">–</span>}</td>
                <td>
                  <strong>{e.sentence}</strong>
                </td>
                <td>{e.via}</td>
                <td>
                  <AuditChanges changes={e.changes} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager page={list.data} onPage={setPageNumber} busy={list.isPlaceholderData} />
    </>
  );
}
