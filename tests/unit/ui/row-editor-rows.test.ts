import { describe, expect, it } from "vitest";
import { cellLabel, withCell, type RowColumn } from "@/components/ui/form/row-editor-rows";

type Tier = { name: string; quotaUsagePolicy: string; fundingBalanceMetric: string };

const policy: RowColumn<Tier> = {
  key: "quotaUsagePolicy",
  header: "Policy",
  cell: "policy",
  kind: "select",
  onSet: (_row, value) => (value === "AllowWithOverage" ? {} : { fundingBalanceMetric: "" }),
};
const name: RowColumn<Tier> = { key: "name", header: "Name", cell: "name" };

describe("row editor rows", () => {
  it("names a cell after its row, counting from 1", () => {
    expect(cellLabel("Tier", 0, "start")).toBe("Tier 1 start");
    expect(cellLabel("Option", 2, "description")).toBe("Option 3 description");
  });

  it("sets one cell of one row and leaves the others as they were", () => {
    const rows: Tier[] = [
      { name: "Included", quotaUsagePolicy: "None", fundingBalanceMetric: "" },
      { name: "Overage", quotaUsagePolicy: "None", fundingBalanceMetric: "" },
    ];
    const next = withCell(rows, 1, name, "Burst");
    expect(next).toEqual([
      { name: "Included", quotaUsagePolicy: "None", fundingBalanceMetric: "" },
      { name: "Burst", quotaUsagePolicy: "None", fundingBalanceMetric: "" },
    ]);
    expect(next[0]).toBe(rows[0]);
    expect(rows[1].name).toBe("Overage");
  });

  it("applies what a column changes with it (a policy without overage drops its funding balance)", () => {
    const rows: Tier[] = [
      { name: "Overage", quotaUsagePolicy: "AllowWithOverage", fundingBalanceMetric: "credits" },
    ];
    expect(withCell(rows, 0, policy, "Notify")).toEqual([
      { name: "Overage", quotaUsagePolicy: "Notify", fundingBalanceMetric: "" },
    ]);
    expect(withCell(rows, 0, policy, "AllowWithOverage")).toEqual(rows);
  });
});
