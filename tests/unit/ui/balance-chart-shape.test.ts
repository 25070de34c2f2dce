import { describe, expect, it } from "vitest";
import { balanceChartShape } from "@/components/metering/balance-chart-shape";

describe("balanceChartShape", () => {
  it("draws one entry as a flat line across the range, marked at its start and labelled under a high line", () => {
    const shape = balanceChartShape([40], 480, 120);
    expect(shape.path).toBe("M5.0,5.0 L475.0,5.0");
    expect(shape.points).toEqual([{ x: 5, y: 5 }]);
    expect(shape.zeroY).toBe(115);
    expect(shape.label).toEqual({ x: 475, y: 25 });
  });

  it("labels a lone entry at zero above its line", () => {
    const shape = balanceChartShape([0], 480, 120);
    expect(shape.path).toBe("M5.0,115.0 L475.0,115.0");
    expect(shape.label).toEqual({ x: 475, y: 105 });
  });

  it("draws several entries point to point over the range from zero, with no value label", () => {
    const shape = balanceChartShape([100, 40, 60], 480, 120);
    expect(shape.path).toBe("M5.0,5.0 L240.0,71.0 L475.0,49.0");
    expect(shape.points).toEqual([
      { x: 5, y: 5 },
      { x: 240, y: 71 },
      { x: 475, y: 49 },
    ]);
    expect(shape.label).toBeNull();
  });

  it("keeps a negative balance inside the frame, the zero line between", () => {
    const shape = balanceChartShape([-10, 10], 480, 120);
    expect(shape.path).toBe("M5.0,115.0 L475.0,5.0");
    expect(shape.zeroY).toBe(60);
  });
});
