"use client";

import { Fragment, useMemo, useState } from "react";
import { sectionLabels, type SectionName } from "@/server/domain/portability/snapshot/sections";
import type {
  TCatalogImportResult,
  TImportItemResult,
} from "@/server/domain/portability/snapshot/snapshot.schemas";
import { Pager } from "../ui/data-table";

const PAGE_SIZE = 50;
export const itemKey = (section: string, key: string) => `${section}\u0000${key}`;

type Row = TImportItemResult & { section: SectionName };

/** Items an apply can name: every item but those the file could not even read. */
export const applicable = (item: Pick<TImportItemResult, "action" | "reason">) =>
  !(item.action === "Skipped" && item.reason?.startsWith("Invalid item"));

const show = (value: unknown) =>
  value === null || value === undefined ? "—" : JSON.stringify(value, null, 1);

/**
 * An import result: counts per section (with the metric names nothing can meter and, when
 * compared, what only the target has), then every item with its action and reason, filterable and
 * paged, each with the fields that differ. With `selected`, each item has a checkbox: the business
 * keys to apply.
 */
export function ImportReport({
  result,
  selected,
  onSelect,
}: {
  result: TCatalogImportResult;
  selected?: ReadonlySet<string>;
  onSelect?: (next: Set<string>) => void;
}) {
  const [section, setSection] = useState<string>("");
  const [action, setAction] = useState<string>("");
  const [search, setSearch] = useState("");
  const [pageNumber, setPageNumber] = useState(1);
  const [open, setOpen] = useState<Set<string>>(new Set());
  const rows: Row[] = useMemo(
    () => result.sections.flatMap((s) => s.items.map((i) => ({ ...i, section: s.section }))),
    [result],
  );
  const filtered = rows.filter(
    (r) =>
      (!section || r.section === section) &&
      (!action || r.action === action) &&
      (!search || r.key.toLowerCase().includes(search.trim().toLowerCase())),
  );
  const totalPages = Math.ceil(filtered.length / PAGE_SIZE);
  const page = filtered.slice((pageNumber - 1) * PAGE_SIZE, pageNumber * PAGE_SIZE);
  const toggle = (keys: string[], on: boolean) => {
    const next = new Set(selected);
    for (const k of keys)
      if (on) next.add(k);
      else next.delete(k);
    onSelect?.(next);
  };
  const selectable = filtered.filter(applicable).map((r) => itemKey(r.section, r.key));

  return (
    <div data-testid="import-report">
      <div className="table-wrap">
        <table className="table table-compact" aria-label="Per section">
          <thead>
            <tr>
              <th scope="col">Section</th>
              <th scope="col" className="num">
                Created
              </th>
              <th scope="col" className="num">
                Updated
              </th>
              <th scope="col" className="num">
                Skipped
              </th>
              <th scope="col">Metric names nothing meters</th>
              <th scope="col">Only in this tenant</th>
            </tr>
          </thead>
          <tbody>
            {result.sections.map((s) => (
              <tr key={s.section} data-testid={`section-${s.section}`}>
                <td>{sectionLabels[s.section]}</td>
                <td className="num">{s.created}</td>
                <td className="num">{s.updated}</td>
                <td className="num">{s.skipped}</td>
                <td>
                  {s.unusableMetricNames.length ? <code>{s.unusableMetricNames.join(", ")}</code> : "—"}
                </td>
                <td>
                  {s.onlyInTarget.length ? (
                    <details>
                      <summary>{s.onlyInTarget.length}</summary>
                      <code className="small">{s.onlyInTarget.join(", ")}</code>
                    </details>
                  ) : (
                    "—"
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <div className="toolbar">
        <select
          aria-label="Filter by section"
          value={section}
          onChange={(e) => (setSection(e.target.value), setPageNumber(1))}
        >
          <option value="">All sections</option>
          {result.sections.map((s) => (
            <option key={s.section} value={s.section}>
              {sectionLabels[s.section]}
            </option>
          ))}
        </select>
        <select
          aria-label="Filter by action"
          value={action}
          onChange={(e) => (setAction(e.target.value), setPageNumber(1))}
        >
          <option value="">All actions</option>
          {["Created", "Updated", "Skipped"].map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </select>
        <input
          type="search"
          aria-label="Filter by key"
          placeholder="Filter by key…"
          value={search}
          onChange={(e) => (setSearch(e.target.value), setPageNumber(1))}
        />
        {onSelect ? (
          <>
            <span className="toolbar-spacer" />
            <button
              type="button"
              className="btn btn-ghost btn-small"
              onClick={() => toggle(selectable, true)}
            >
              Select shown
            </button>
            <button
              type="button"
              className="btn btn-ghost btn-small"
              onClick={() => toggle(selectable, false)}
            >
              Clear shown
            </button>
          </>
        ) : null}
      </div>
      <div className="table-wrap">
        <table className="table table-compact" aria-label="Items">
          <thead>
            <tr>
              {onSelect ? (
                <th scope="col">
                  <span className="sr-only">Apply</span>
                </th>
              ) : null}
              <th scope="col">Section</th>
              <th scope="col">Key</th>
              <th scope="col">Action</th>
              <th scope="col">Reason</th>
              <th scope="col">Changes</th>
            </tr>
          </thead>
          <tbody>
            {page.length === 0 ? (
              <tr>
                <td colSpan={onSelect ? 6 : 5} className="table-empty">
                  No item matches these filters.
                </td>
              </tr>
            ) : null}
            {page.map((r, i) => {
              const id = itemKey(r.section, r.key);
              const rowId = `${id}\u0000${i}`;
              const differing = r.changes.filter((c) => c.isDifferent).length;
              return (
                <Fragment key={rowId}>
                  <tr data-testid="import-item">
                    {onSelect ? (
                      <td>
                        <input
                          type="checkbox"
                          aria-label={`Apply ${r.key}`}
                          disabled={!applicable(r)}
                          checked={applicable(r) && !!selected?.has(id)}
                          onChange={(e) => toggle([id], e.target.checked)}
                        />
                      </td>
                    ) : null}
                    <td>{sectionLabels[r.section]}</td>
                    <td>
                      <code>{r.key}</code>
                    </td>
                    <td>
                      <span className={`badge action-${r.action}`}>{r.action}</span>
                    </td>
                    <td className="reason">{r.reason ?? <span className="muted">—</span>}</td>
                    <td>
                      {r.changes.length ? (
                        <button
                          type="button"
                          className="link-button"
                          aria-expanded={open.has(rowId)}
                          onClick={() => {
                            const next = new Set(open);
                            if (next.has(rowId)) next.delete(rowId);
                            else next.add(rowId);
                            setOpen(next);
                          }}
                        >
                          {differing} of {r.changes.length} differ
                        </button>
                      ) : (
                        <span className="muted">—</span>
                      )}
                    </td>
                  </tr>
                  {open.has(rowId) ? (
                    <tr>
                      <td colSpan={onSelect ? 6 : 5}>
                        <table className="table table-compact diff-table" aria-label={`Changes of ${r.key}`}>
                          <thead>
                            <tr>
                              <th scope="col">Field</th>
                              <th scope="col">In this tenant</th>
                              <th scope="col">In the file</th>
                            </tr>
                          </thead>
                          <tbody>
                            {r.changes.map((c) => (
                              <tr key={c.field} data-testid="change">
                                <td>
                                  {c.field}{" "}
                                  {c.isDifferent ? (
                                    <span className="badge action-Skipped">differs</span>
                                  ) : null}
                                </td>
                                <td className={c.isDifferent ? "changed" : undefined}>
                                  <pre>{show(c.current)}</pre>
                                </td>
                                <td className={c.isDifferent ? "changed" : undefined}>
                                  <pre>{show(c.incoming)}</pre>
                                </td>
                              </tr>
                            ))}
                          </tbody>
                        </table>
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
      <Pager
        page={{
          pageNumber,
          totalPages,
          totalCount: filtered.length,
          hasNextPage: pageNumber < totalPages,
          hasPreviousPage: pageNumber > 1,
        }}
        onPage={setPageNumber}
      />
    </div>
  );
}
