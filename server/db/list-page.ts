/**
 * The one shape of a list read (docs/api.md general conventions): the Sieve filter and sort of the
 * query within the caller's conditions, a stable order, one page of rows and the total count,
 * answered as the page envelope.
 */
import { pageEnvelope, pageWindow, type Page, type TListQuery } from "../core/pagination.ts";
import { sieveOrderBy, sieveWhere, type SieveWhitelist } from "./sieve-where.ts";

type Where = Record<string, unknown>;
type Order = Record<string, unknown>;

export type ListQuery = Pick<TListQuery, "pageNumber" | "pageSize"> &
  Partial<Pick<TListQuery, "filter" | "sortOrder">>;

export type ListSpec<Row> = {
  /** The fields the query's `filter` and `sortOrder` may name; without one both are ignored. */
  sieve?: SieveWhitelist;
  /** What every listed row meets besides the filter: its owner, `includeDeleted`, a scope. */
  where?: object;
  /** The order when the query names none. */
  defaultOrder: Order[];
  /** Last in every order, so rows that sort alike keep their place across pages. */
  tieBreaker?: Order;
  findMany: (args: { where: Where; orderBy: Order[]; skip: number; take: number }) => Promise<Row[]>;
  count: (args: { where: Where; take?: number }) => Promise<number>;
  /**
   * Count at most this many rows past the page's end (docs/decisions.md "Bounded list counts"):
   * beyond, `totalCount` is that bound and `totalCountIsLowerBound` is true. Without it the count
   * is exact, whatever it costs.
   */
  countBeyondPage?: number;
};

/**
 * What the lists of a tenant's largest tables (licenses, devices, sessions, activation codes) count
 * past the page they answer (docs/decisions.md "Bounded list counts"): a tenant with millions of
 * rows pays for 10,000.
 */
export const COUNT_BEYOND_PAGE = 10_000;

/**
 * One page of `spec`'s rows for `query`, with the count of all of them. A page size of 0 reads no
 * rows and only counts.
 */
export async function listPage<Row, Item>(
  query: ListQuery,
  spec: ListSpec<Row>,
  toItems: (rows: Row[]) => Item[] | Promise<Item[]>,
): Promise<Page<Item>> {
  const filtered = spec.sieve ? sieveWhere(query.filter, spec.sieve) : {};
  const where = spec.where ? { AND: [filtered, spec.where] } : filtered;
  const orderBy = [
    ...((spec.sieve && sieveOrderBy(query.sortOrder, spec.sieve)) ?? spec.defaultOrder),
    spec.tieBreaker ?? { id: "asc" },
  ];
  const window = pageWindow(query);
  const countLimit =
    spec.countBeyondPage === undefined ? undefined : window.skip + window.take + spec.countBeyondPage;
  const [rows, totalCount] = await Promise.all([
    query.pageSize > 0 ? spec.findMany({ where, orderBy, ...window }) : Promise.resolve([]),
    spec.count(countLimit === undefined ? { where } : { where, take: countLimit }),
  ]);
  const page = pageEnvelope(rows.length ? await toItems(rows) : [], query, totalCount);
  return countLimit !== undefined && totalCount >= countLimit
    ? { ...page, totalCountIsLowerBound: true }
    : page;
}
