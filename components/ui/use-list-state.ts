"use client";

import { useSearchParams } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { nextSort, sortOrderOf, type SortState } from "./data-table";
import { sieveFilter } from "./sieve";

/** Filter values: text (typed or chosen) or a checkbox's. */
export type ListFilters = Record<string, unknown>;

type Snapshot<F extends ListFilters> = { filters: F; sort: SortState; pageNumber: number; pageSize: number };

export type ListStateOptions<F extends ListFilters> = {
  /** Prefix of the list's URL parameters (`key.page`), for a page that shows several lists. */
  key?: string;
  /** The list's filter controls and their defaults: text (typed or chosen) or a checkbox. */
  filters?: F;
  /** The order before the user sorts; `null` is the server's default order. */
  sort?: SortState;
  pageSize?: number;
  /** The Sieve terms of the applied filters (empty ones are left out). */
  terms?: (filters: F) => (string | false | null | undefined)[];
};

const TYPING_PAUSE_MS = 300;
const MAX_PAGE_SIZE = 100;

/**
 * A list's paging, sort order and filters, kept in the URL's query (`page`, `pageSize`, `sort` as
 * a Sieve sort order, and one parameter per filter; defaults are left out) so a filtered, sorted
 * page of a list can be linked to and reloaded. Any change of filter or sort goes back to page 1.
 */
export function useListState<F extends ListFilters = Record<string, never>>(
  options: ListStateOptions<F> = {},
) {
  const { key, terms } = options;
  const defaults: Snapshot<F> = {
    filters: options.filters ?? ({} as F),
    sort: options.sort ?? null,
    pageNumber: 1,
    pageSize: options.pageSize ?? 20,
  };
  const param = (name: string) => (key ? `${key}.${name}` : name);
  const params = useSearchParams();
  const fromUrl = read(params, defaults, param);
  const urlKey = serialize(fromUrl, defaults, param).toString();

  /** What the controls show: typed text at once. */
  const [values, setValues] = useState<F>(fromUrl.filters);
  /** What the list shows and the URL holds. */
  const [settled, setSettled] = useState<Snapshot<F>>(fromUrl);
  const timers = useRef<Record<string, ReturnType<typeof setTimeout>>>({});
  const settledKey = serialize(settled, defaults, param).toString();
  /** The URL query last seen, the state last sent to the URL, and what was sent but not yet seen back. */
  const [seenUrl, setSeenUrl] = useState(urlKey);
  const [sentKey, setSentKey] = useState(settledKey);
  const [inFlight, setInFlight] = useState<string[]>([]);

  if (urlKey !== seenUrl) {
    setSeenUrl(urlKey);
    const ours = inFlight.indexOf(urlKey);
    if (ours >= 0) {
      // One of this list's own URL writes arriving (Next.js applies them a moment later, in order).
      setInFlight(inFlight.slice(ours + 1));
    } else if (urlKey !== settledKey) {
      // Navigation to this page with other parameters (a link, the menu) replaces the list's state.
      setValues(fromUrl.filters);
      setSettled(fromUrl);
      setSentKey(urlKey);
      setInFlight([]);
    }
  } else if (settledKey !== sentKey) {
    setSentKey(settledKey);
    setInFlight((sent) => [...sent, settledKey]);
  }

  useEffect(() => {
    const url = new URL(window.location.href);
    const next = new URLSearchParams(url.search);
    for (const name of [...Object.keys(defaults.filters), "page", "pageSize", "sort"])
      next.delete(param(name));
    for (const [name, value] of new URLSearchParams(settledKey)) next.append(name, value);
    if (next.toString() === url.searchParams.toString()) return;
    const query = next.toString();
    window.history.replaceState(null, "", `${url.pathname}${query ? `?${query}` : ""}${url.hash}`);
    // `defaults` and `param` follow from the options, which settledKey already reflects.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settledKey]);

  useEffect(() => {
    const pending = timers.current;
    return () => Object.values(pending).forEach(clearTimeout);
  }, []);

  /** A change of filter or sort: back to page 1. */
  const apply = (change: Partial<Snapshot<F>>, filters: (f: F) => F = (f) => f) =>
    setSettled((s) => ({ ...s, pageNumber: 1, ...change, filters: filters(s.filters) }));

  return {
    /** The controls' values. */
    values,
    /** The filters, sort and page the list is read with. */
    settled: settled.filters,
    /** Sets a filter (a choice, a checkbox, a click) and goes back to page 1. */
    set<K extends keyof F & string>(name: K, value: F[K]) {
      clearTimeout(timers.current[name]);
      setValues((v) => ({ ...v, [name]: value }));
      apply({}, (filters) => ({ ...filters, [name]: value }));
    },
    /** Types into a text filter: shown at once, applied (trimmed) when typing pauses. */
    type<K extends keyof F & string>(name: K, text: string) {
      clearTimeout(timers.current[name]);
      setValues((v) => ({ ...v, [name]: text }));
      timers.current[name] = setTimeout(
        () => apply({}, (filters) => ({ ...filters, [name]: text.trim() })),
        TYPING_PAUSE_MS,
      );
    },
    /**
     * Whether a typed filter has not been applied yet: until it is, the rows shown are not what
     * the controls say (the list reads busy, so nobody acts on, or asserts, the old rows).
     */
    pending: Object.keys(values).some((k) => {
      const shown = values[k];
      const applied = settled.filters[k];
      return typeof shown === "string" && typeof applied === "string"
        ? shown.trim() !== applied.trim()
        : shown !== applied;
    }),
    /** Whether any applied filter differs from its default (for "nothing matches" texts). */
    isFiltered: Object.keys(defaults.filters).some((k) => settled.filters[k] !== defaults.filters[k]),
    sort: settled.sort,
    /** A click on a sortable column: ascending, descending, then the default order. */
    onSort: (field: string) => apply({ sort: nextSort(settled.sort, field) }),
    pageNumber: settled.pageNumber,
    setPageNumber: (pageNumber: number) => setSettled((s) => ({ ...s, pageNumber })),
    pageSize: settled.pageSize,
    /** The list query's paging, sort order and Sieve filter. */
    query: {
      filter: terms ? sieveFilter(...terms(settled.filters)) : undefined,
      sortOrder: sortOrderOf(settled.sort),
      pageNumber: settled.pageNumber,
      pageSize: settled.pageSize,
    },
  };
}

function read<F extends ListFilters>(
  params: URLSearchParams,
  defaults: Snapshot<F>,
  param: (name: string) => string,
): Snapshot<F> {
  const filters = { ...defaults.filters };
  for (const [name, fallback] of Object.entries(defaults.filters)) {
    const raw = params.get(param(name));
    if (raw !== null) (filters as ListFilters)[name] = typeof fallback === "boolean" ? raw === "true" : raw;
  }
  const sort = params.get(param("sort"));
  const page = Number(params.get(param("page")));
  const size = Number(params.get(param("pageSize")));
  return {
    filters,
    sort:
      sort === null
        ? defaults.sort
        : sort === ""
          ? null
          : { field: sort.replace(/^-/, ""), descending: sort.startsWith("-") },
    pageNumber: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: Number.isInteger(size) && size >= 1 && size <= MAX_PAGE_SIZE ? size : defaults.pageSize,
  };
}

/** The URL parameters of a state: only what differs from the defaults. */
function serialize<F extends ListFilters>(
  state: Snapshot<F>,
  defaults: Snapshot<F>,
  param: (name: string) => string,
): URLSearchParams {
  const out = new URLSearchParams();
  for (const [name, value] of Object.entries(state.filters))
    if (value !== defaults.filters[name]) out.set(param(name), String(value));
  const sort = sortOrderOf(state.sort) ?? "";
  if (sort !== (sortOrderOf(defaults.sort) ?? "")) out.set(param("sort"), sort);
  if (state.pageNumber !== 1) out.set(param("page"), String(state.pageNumber));
  if (state.pageSize !== defaults.pageSize) out.set(param("pageSize"), String(state.pageSize));
  return out;
}

/** What `useListState` answers, for the controls bound to it. */
export type ListView<F extends ListFilters> = ReturnType<typeof useListState<F>>;
