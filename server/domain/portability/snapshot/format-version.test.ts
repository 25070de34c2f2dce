import { describe, expect, it } from "vitest";
import { CATALOG_FORMAT_VERSION, checkFormatVersion, formatMajor } from "./format-version.ts";
import { AppError } from "../../../core/errors.ts";

const refusal = (version: string) => {
  try {
    checkFormatVersion(version);
    return null;
  } catch (error) {
    return error instanceof AppError ? error.codeName : "not an AppError";
  }
};

describe("catalog snapshot formatVersion", () => {
  it("the service writes a semantic version of a major it reads", () => {
    expect(formatMajor(CATALOG_FORMAT_VERSION)).toBe(1);
    expect(refusal(CATALOG_FORMAT_VERSION)).toBeNull();
  });

  it("the major component gates import: any minor, patch or suffix of major 1 is read", () => {
    for (const v of ["1.0.0", "1.9.12", "1.0.0-rc.1", "1.2.3+build.5"]) expect(refusal(v), v).toBeNull();
  });

  it("another major, or a string that is not a semantic version, is refused with catalog.unsupported_format_version", () => {
    for (const v of ["2.0.0", "0.9.0", "10.0.0", "1", "1.0", "v1.0.0", "", "one"])
      expect(refusal(v), v).toBe("catalog.unsupported_format_version");
  });
});
