import { describe, expect, it } from "vitest";
import { componentsMatch } from "./component-matching.ts";

const known = { MachineName: "m", MacAddress: "a", OsVersion: "o", UserName: "u" };
/** The known components with the first `equal` kept and the rest changed. */
const presenting = (equal: number) =>
  Object.fromEntries(Object.entries(known).map(([k, v], i) => [k, i < equal ? v : `${v}'`]));

describe("componentsMatch (docs/api.md ComponentMatchingStrategy)", () => {
  const table: [strategy: "MatchAll" | "MatchAny" | "Two" | "Most", equal: number, matches: boolean][] = [
    ["MatchAll", 4, false],
    ["MatchAll", 0, false],
    ["MatchAny", 0, false],
    ["MatchAny", 1, true],
    ["MatchAny", 4, true],
    ["Two", 1, false],
    ["Two", 2, true],
    ["Two", 3, true],
    ["Most", 2, false],
    ["Most", 3, true],
    ["Most", 4, true],
  ];
  it.each(table)("%s with %i of 4 components equal → %s", (strategy, equal, matches) => {
    expect(componentsMatch(known, presenting(equal), strategy)).toBe(matches);
  });

  it("compares by key: an equal hash under another key does not count", () => {
    expect(componentsMatch({ MachineName: "x" }, { UserName: "x" }, "MatchAny")).toBe(false);
  });

  it("a device without stored components never matches by components", () => {
    expect(componentsMatch({}, known, "MatchAny")).toBe(false);
  });

  it("Most counts against the known device's components: extra presented keys do not dilute the majority", () => {
    expect(
      componentsMatch(
        { MachineName: "m", MacAddress: "a" },
        { MachineName: "m", MacAddress: "a", Extra1: "e", Extra2: "f", Extra3: "g" },
        "Most",
      ),
    ).toBe(true);
    expect(componentsMatch({ MachineName: "m", MacAddress: "a" }, { MachineName: "m" }, "Most")).toBe(false);
  });

  it("Most never matches by one component, even when the device stored only that one", () => {
    expect(componentsMatch({ OsVersion: "o" }, { OsVersion: "o" }, "Most")).toBe(false);
    expect(componentsMatch({ OsVersion: "o" }, { OsVersion: "o" }, "MatchAny")).toBe(true);
  });

  it("other keys than the well-known four take part", () => {
    expect(componentsMatch({ Disk: "d", Cpu: "c" }, { Disk: "d", Cpu: "c" }, "Two")).toBe(true);
  });
});
