import { describe, expect, it } from "vitest";
import { mapUsageEvent } from "./event-mapping.ts";
import { micros } from "../quantity.ts";

const tracked = (m: string) => ["api-calls", "storage-gb"].includes(m);

describe("usage event mapping (eventName / eventData → metric and amount)", () => {
  it("eventData.metricName names the metric, else eventName does; amount defaults to 1", () => {
    expect(mapUsageEvent("ApiCall", JSON.stringify({ metricName: "api-calls", amount: 3 }), tracked)).toEqual(
      {
        metricName: "api-calls",
        amount: micros(3),
      },
    );
    expect(mapUsageEvent("storage-gb", JSON.stringify({ amount: "1.25" }), tracked)).toEqual({
      metricName: "storage-gb",
      amount: micros("1.25"),
    });
    expect(mapUsageEvent("api-calls", "{}", tracked)).toEqual({ metricName: "api-calls", amount: micros(1) });
  });

  it("anything else is unmatched, with the reason", () => {
    expect(mapUsageEvent("api-calls", "nope", tracked)).toEqual({ unmatched: "eventData is not JSON" });
    expect(mapUsageEvent("api-calls", "[1]", tracked)).toEqual({
      unmatched: "eventData is not a JSON object",
    });
    expect(mapUsageEvent("Api-Calls", "{}", tracked)).toEqual({ unmatched: 'no tracked metric "Api-Calls"' });
    expect(mapUsageEvent("x", JSON.stringify({ metricName: "api-calls", amount: -1 }), tracked)).toEqual({
      unmatched: "amount is out of range",
    });
    expect(mapUsageEvent("x", JSON.stringify({ metricName: "api-calls", amount: true }), tracked)).toEqual({
      unmatched: "amount is not a number",
    });
  });
});
