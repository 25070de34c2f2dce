import { formatCount } from "./format";

/**
 * The pager's words for a page envelope. A list that stopped counting (docs/decisions.md "Bounded
 * list counts") knows a lower bound only, and says so: "Page 1 of 501+", "more than 10,020 total".
 */
export function pagerStatus(page: {
  pageNumber: number;
  totalPages: number;
  totalCount: number;
  totalCountIsLowerBound?: boolean;
}): { pages: string; total: string } {
  const more = page.totalCountIsLowerBound === true;
  return {
    pages: `Page ${formatCount(page.pageNumber)} of ${formatCount(page.totalPages)}${more ? "+" : ""}`,
    total: `${more ? "more than " : ""}${formatCount(page.totalCount)} total`,
  };
}
