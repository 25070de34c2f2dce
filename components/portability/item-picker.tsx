"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { SectionName } from "@/server/domain/portability/snapshot/sections";
import { useTRPC } from "../shell/trpc-provider";
import { Pager } from "../ui/data-table";
import { ProblemAlert } from "../ui/problem-alert";
import { problemFrom } from "../ui/problem";
import { useDebounced } from "../ui/use-debounced";

const PAGE_SIZE = 20;

/** Picks the records of one section to export: search, pages, a checkbox per record. */
export function ItemPicker({
  section,
  label,
  chosen,
  onChange,
}: {
  section: SectionName;
  label: string;
  chosen: ReadonlyMap<string, string>;
  onChange: (next: Map<string, string>) => void;
}) {
  const trpc = useTRPC();
  const [search, setSearch] = useState("");
  const [pageNumber, setPageNumber] = useState(1);
  const term = useDebounced(search.trim());
  const list = useQuery({
    ...trpc.catalogTransfer.candidates.queryOptions({
      section,
      search: term,
      pageNumber,
      pageSize: PAGE_SIZE,
    }),
    placeholderData: keepPreviousData,
  });
  const toggle = (id: string, key: string, on: boolean) => {
    const next = new Map(chosen);
    if (on) next.set(id, key);
    else next.delete(id);
    onChange(next);
  };
  return (
    <fieldset className="detail-section" data-testid={`picker-${section}`}>
      <legend>
        {label} <span className="muted small">({chosen.size} chosen)</span>
      </legend>
      <div className="toolbar">
        <input
          type="search"
          aria-label={`Search ${label}`}
          placeholder="Search by name or code…"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPageNumber(1);
          }}
        />
        {chosen.size ? (
          <button type="button" className="btn btn-ghost btn-small" onClick={() => onChange(new Map())}>
            Clear
          </button>
        ) : null}
      </div>
      <ProblemAlert problem={problemFrom(list.error)} />
      <ul
        className="scope-list picker-list"
        aria-busy={list.isLoading || list.isPlaceholderData || search.trim() !== term || undefined}
      >
        {(list.data?.items ?? []).map((item) => (
          <li key={item.id}>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={chosen.has(item.id)}
                onChange={(e) => toggle(item.id, item.key, e.target.checked)}
              />
              <code>{item.key}</code> {item.label !== item.key ? item.label : null}
              {item.detail ? <span className="muted small"> · {item.detail}</span> : null}
            </label>
          </li>
        ))}
        {list.data && list.data.items.length === 0 ? (
          <li className="muted">{term ? "Nothing matches this search." : "Nothing to export here."}</li>
        ) : null}
      </ul>
      <Pager page={list.data} onPage={setPageNumber} />
    </fieldset>
  );
}
