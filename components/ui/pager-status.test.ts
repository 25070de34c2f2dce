import { describe, expect, it } from "vitest";
import { pagerStatus } from "./pager-status";

describe("pager status", () => {
  it("says the page and the exact total of a list that counted all its rows", () => {
    expect(pagerStatus({ pageNumber: 2, totalPages: 3, totalCount: 47 })).toEqual({
      pages: "Page 2 of 3",
      total: "47 total",
    });
    expect(
      pagerStatus({ pageNumber: 1, totalPages: 1234, totalCount: 24_680, totalCountIsLowerBound: false }),
    ).toEqual({
      pages: "Page 1 of 1,234",
      total: "24,680 total",
    });
  });

  it("says 'more than' a list's bound when it stopped counting", () => {
    expect(
      pagerStatus({ pageNumber: 1, totalPages: 501, totalCount: 10_020, totalCountIsLowerBound: true }),
    ).toEqual({
      pages: "Page 1 of 501+",
      total: "more than 10,020 total",
    });
  });
});
