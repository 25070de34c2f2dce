/**
 * The error-code catalog: every problem the API can answer, with its stable integer `code`,
 * its HTTP status and a short title. SPEC.md fixes some numbers (2004, 4022, 4033, 4034, 4035);
 * the rest are assigned here once and never reused.
 *
 * Ranges: 1xxx platform (auth, idempotency, concurrency), 2xxx licensing, 3xxx catalog,
 * 4xxx webhooks, 5xxx metering, 6xxx entitlements.
 */
export const errorCatalog = {
  "internal.error": { code: 1000, status: 500, title: "Internal error" },
  "auth.unauthenticated": { code: 1001, status: 401, title: "Authentication required" },
  "auth.insufficient_scope": { code: 1003, status: 403, title: "Insufficient scope" },
  "auth.forbidden": { code: 1004, status: 403, title: "Forbidden" },
  "idempotency.key_reused": { code: 1010, status: 409, title: "Idempotency key reused" },
  "concurrency.revision_mismatch": { code: 1020, status: 409, title: "Stale revision" },
  "request.unsupported_media_type": { code: 1030, status: 415, title: "Unsupported media type" },
  "request.payload_too_large": { code: 1031, status: 413, title: "Payload too large" },

  "license.validation_error": { code: 2001, status: 400, title: "Validation error" },
  "license.not_found": { code: 2004, status: 404, title: "Not found" },
  "license.conflict": { code: 2009, status: 409, title: "Conflict" },

  "tag.name_taken": { code: 3001, status: 409, title: "Tag name already in use" },
  "tag.scope_mismatch": { code: 3002, status: 400, title: "Tags are in different scopes" },
  "tag.merge_into_self": { code: 3003, status: 400, title: "A tag cannot be merged into itself" },

  "subscription.not_applicable": { code: 4022, status: 400, title: "Not applicable to this subscription" },
  "subscription.invalid_url": { code: 4033, status: 400, title: "Invalid receiver URL" },
  "subscription.invalid_filter": { code: 4034, status: 400, title: "Filter can never match" },
  "subscription.invalid_event_type": { code: 4035, status: 400, title: "Invalid event type pattern" },
} as const satisfies Record<string, { code: number; status: number; title: string }>;

export type CodeName = keyof typeof errorCatalog;

export type FieldIssue = { path: string; message: string };

/** The one error type of the service; everything a caller can get wrong is one of these. */
export class AppError extends Error {
  readonly codeName: CodeName;
  readonly issues?: FieldIssue[];
  readonly headers?: Record<string, string>;

  constructor(codeName: CodeName, detail?: string, options?: { issues?: FieldIssue[]; headers?: Record<string, string> }) {
    super(detail ?? errorCatalog[codeName].title);
    this.name = "AppError";
    this.codeName = codeName;
    this.issues = options?.issues;
    this.headers = options?.headers;
  }

  get status(): number {
    return errorCatalog[this.codeName].status;
  }

  get code(): number {
    return errorCatalog[this.codeName].code;
  }
}

export const notFound = (what = "Resource") => new AppError("license.not_found", `${what} not found.`);
export const validationError = (detail: string, issues?: FieldIssue[]) =>
  new AppError("license.validation_error", detail, { issues });
