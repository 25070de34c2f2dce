"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../shell/trpc-provider";

/**
 * The plan names an add-on's suite prices, from its revisions that are not archived (the published
 * one first): what an add-on value may target.
 */
export function useSuitePlanNames(suiteId: string): { names: string[]; loading: boolean } {
  const trpc = useTRPC();
  const planSets = useQuery(
    trpc.planSets.list.queryOptions({
      filter: `suiteId==${suiteId}`,
      sortOrder: "-revision",
      pageNumber: 1,
      pageSize: 20,
    }),
  );
  const revisions = (planSets.data?.items ?? [])
    .filter((r) => r.status !== "Archived")
    .sort((a, b) => (a.status === "Published" ? -1 : b.status === "Published" ? 1 : 0));
  const names: string[] = [];
  for (const r of revisions)
    for (const p of r.plans)
      if (!names.some((n) => n.toLowerCase() === p.name.toLowerCase())) names.push(p.name);
  return { names, loading: planSets.isPending };
}

/**
 * Which plans a value applies to, picked from the suite's plans (none checked: every plan). A
 * saved target no plan carries any more stays listed, so it can be seen and unchecked.
 */
export function PlanTargetsPicker({
  value,
  onChange,
  planNames,
  loading,
  disabled,
}: {
  value: string[];
  onChange: (targets: string[]) => void;
  planNames: string[];
  loading: boolean;
  disabled?: boolean;
}) {
  const stale = value.filter((t) => !planNames.some((n) => n.toLowerCase() === t.toLowerCase()));
  const checked = (name: string) => value.some((t) => t.toLowerCase() === name.toLowerCase());
  const toggle = (name: string, on: boolean) =>
    onChange(on ? [...value, name] : value.filter((t) => t.toLowerCase() !== name.toLowerCase()));
  return (
    <fieldset className="plan-targets" aria-label="Plan targets" disabled={disabled}>
      {loading ? <span className="muted small">Loading plans…</span> : null}
      {[...planNames, ...stale].map((name) => (
        <label className="checkbox" key={name}>
          <input type="checkbox" checked={checked(name)} onChange={(e) => toggle(name, e.target.checked)} />
          {name}
          {stale.includes(name) ? <span className="muted small"> (no longer a plan)</span> : null}
        </label>
      ))}
      {!loading && planNames.length === 0 && stale.length === 0 ? (
        <span className="muted small">The suite has no plans yet.</span>
      ) : null}
      <span className="muted small">{value.length === 0 ? "Every plan" : null}</span>
    </fieldset>
  );
}
