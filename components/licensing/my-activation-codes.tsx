"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../trpc-provider";
import { CopyButton } from "../copy-button";
import { ProblemAlert } from "../problem-alert";
import { problemFrom } from "../problem";
import { portalLine, portalList } from "./portal-list";

/** Portal: the signed-in user's activation codes, ready to copy into an application. */
export function MyActivationCodes() {
  const trpc = useTRPC();
  const codes = useQuery(trpc.licensing.myActivationCodes.queryOptions({ pageNumber: 1, pageSize: 50, filter: "status==Active", sortOrder: "-createdAt" }));
  if (codes.error) return <ProblemAlert problem={problemFrom(codes.error)} />;
  if (!codes.data) return <p className="muted">Loading…</p>;
  if (codes.data.items.length === 0) return <p className="muted" data-testid="no-activation-codes">No activation code has been issued to you yet.</p>;
  return (
    <ul style={portalList} data-testid="my-activation-codes">
      {codes.data.items.map((c) => (
        <li key={c.id} style={portalLine}>
          <code>{c.code}</code>
          <span className="muted small">{c.deviceLimit === null ? "" : `${c.devicesInUse} of ${c.deviceLimit} devices`}</span>
          <CopyButton value={c.code} />
        </li>
      ))}
    </ul>
  );
}
