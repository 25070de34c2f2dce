"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../shell/trpc-provider";
import { CopyButton } from "../ui/copy-button";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { formatCountOf } from "../ui/format";
import { Pager } from "../ui/data-table";
import { useListState } from "../ui/use-list-state";
import { portalLine, portalList } from "./portal-list";

/** Portal: the signed-in user's activation codes, ready to copy into an application. */
export function MyActivationCodes() {
  const trpc = useTRPC();
  const view = useListState({
    key: "codes",
    pageSize: 50,
    sort: { field: "createdAt", descending: true },
    terms: () => ["status==Active"],
  });
  const codes = useQuery(trpc.licensing.myActivationCodes.queryOptions(view.query));
  // The same query as "Your licenses" (shared cache): each code names the license it activates.
  const licenses = useQuery(trpc.sessions.myLicenses.queryOptions());
  const licenseName = (entitlementId: string) =>
    licenses.data?.find((l) => l.entitlementId === entitlementId)?.name ?? "License";
  if (codes.error) return <ProblemAlert problem={problemFrom(codes.error)} />;
  if (!codes.data) return <p className="muted">Loading…</p>;
  if (codes.data.items.length === 0)
    return (
      <p className="muted" data-testid="no-activation-codes">
        No activation code has been issued to you yet.
      </p>
    );
  return (
    <>
      <ul style={portalList} data-testid="my-activation-codes">
        {codes.data.items.map((c) => (
          <li key={c.id} style={portalLine}>
            <code>{c.code}</code>
            <span className="small" data-testid="code-license">
              for {licenseName(c.entitlementId)}
            </span>
            <span className="muted small">
              {c.deviceLimit === null ? "" : `${c.devicesInUse} of ${formatCountOf(c.deviceLimit, "device")}`}
            </span>
            <CopyButton value={c.code} />
          </li>
        ))}
      </ul>
      {codes.data.totalPages > 1 ? <Pager page={codes.data} onPage={view.setPageNumber} /> : null}
    </>
  );
}
