import { AppError } from "../../../core/errors.ts";

/**
 * The snapshot format this service writes (docs/api.md Versioning 3). Minor versions add optional
 * fields a reader of the same major ignores; a new major changes meaning and is refused.
 */
export const CATALOG_FORMAT_VERSION = "1.0.0";
export const SUPPORTED_FORMAT_MAJORS: readonly number[] = [1];

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** The major component of a semantic version, or null when the string is not one. */
export function formatMajor(version: string): number | null {
  const match = SEMVER.exec(version.trim());
  return match ? Number(match[1]) : null;
}

/** Refuses a snapshot whose format this service cannot read (400 catalog.unsupported_format_version). */
export function checkFormatVersion(version: string): void {
  const major = formatMajor(version);
  if (major === null) {
    throw new AppError(
      "catalog.unsupported_format_version",
      `formatVersion "${version}" is not a semantic version (major.minor.patch); this service reads ${CATALOG_FORMAT_VERSION}.`,
    );
  }
  if (!SUPPORTED_FORMAT_MAJORS.includes(major)) {
    throw new AppError(
      "catalog.unsupported_format_version",
      `formatVersion ${version} has major version ${major}; this service reads major ${SUPPORTED_FORMAT_MAJORS.join(", ")} (it writes ${CATALOG_FORMAT_VERSION}).`,
    );
  }
}
