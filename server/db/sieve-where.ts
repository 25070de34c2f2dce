/**
 * Sieve filters and sort orders (server/core/sieve.ts) translated into Prisma `where` / `orderBy`
 * objects, never SQL. Every problem is an AppError "license.validation_error".
 */
import { validationError } from "../core/errors.ts";
import {
  ALL_OPERATORS,
  FIELD_NAME,
  parseSieveTerms,
  type ParsedTerm,
  type SieveFieldSpec,
  type SieveFieldType,
  type SieveOperator,
  type SieveWhitelist,
} from "../core/sieve.ts";

export type { SieveFieldSpec, SieveFieldType, SieveOperator, SieveWhitelist } from "../core/sieve.ts";

type Where = Record<string, unknown>;
// ---------------------------------------------------------------------------------------------
// Filter → Prisma where
// ---------------------------------------------------------------------------------------------

const EQUALITY: readonly SieveOperator[] = ["==", "!="];
const ORDERING: readonly SieveOperator[] = [">", "<", ">=", "<="];

const ALLOWED_OPERATORS: Record<SieveFieldType, readonly SieveOperator[]> = {
  string: ALL_OPERATORS,
  number: [...EQUALITY, ...ORDERING],
  integer: [...EQUALITY, ...ORDERING],
  date: [...EQUALITY, ...ORDERING],
  boolean: EQUALITY,
  uuid: EQUALITY,
  enum: EQUALITY,
};

const CASE_INSENSITIVE_TYPES: readonly SieveFieldType[] = ["string", "enum", "uuid"];
const NEGATED_OPERATORS: readonly SieveOperator[] = ["!=", "!@=", "!_=", "!_-="];

const PRISMA_OPERATOR: Record<SieveOperator, string> = {
  "==": "equals",
  "!=": "equals",
  ">": "gt",
  "<": "lt",
  ">=": "gte",
  "<=": "lte",
  "@=": "contains",
  "!@=": "contains",
  "_=": "startsWith",
  "!_=": "startsWith",
  "_-=": "endsWith",
  "!_-=": "endsWith",
};

type ResolvedField = { key: string; spec: SieveFieldSpec; path: string[] };

/** The Prisma where for a filter: `{AND: [...]}` with one entry per term, or `{}` when there is none. */
export function sieveWhere(filter: string | undefined | null, whitelist: SieveWhitelist): Where {
  if (filter == null || filter.trim() === "") return {};
  const conditions = parseSieveTerms(filter).map(({ raw, term }) => termWhere(term, raw, whitelist));
  return { AND: conditions };
}

function termWhere(term: ParsedTerm, raw: string, whitelist: SieveWhitelist): Where {
  const pairs = term.fields.flatMap((name) => {
    const field = resolveField(name, whitelist, "filter", raw);
    checkOperator(field, term, raw);
    return term.values.map((value) => pairWhere(field, term, value, raw));
  });
  return pairs.length === 1 ? pairs[0] : { OR: pairs };
}

function resolveField(
  name: string,
  whitelist: SieveWhitelist,
  usage: "filter" | "sort",
  raw: string,
): ResolvedField {
  const keys = Object.keys(whitelist);
  const key = keys.includes(name) ? name : keys.find((k) => k.toLowerCase() === name.toLowerCase());
  const usable = (k: string) =>
    (usage === "filter" ? whitelist[k].filterable : whitelist[k].sortable) !== false;
  const where = usage === "filter" ? `filter term "${raw}"` : `sortOrder "${raw}"`;

  if (key === undefined) {
    const allowed = keys.filter(usable).join(", ") || "none";
    throw validationError(`Unknown field "${name}" in ${where}; allowed fields: ${allowed}.`);
  }
  if (!usable(key)) throw validationError(`Field "${key}" cannot be used to ${usage} (in ${where}).`);

  const spec = whitelist[key];
  return { key, spec, path: (spec.column ?? key).split(".") };
}

function checkOperator({ key, spec }: ResolvedField, term: ParsedTerm, raw: string): void {
  if (!ALLOWED_OPERATORS[spec.type].includes(term.op)) {
    throw validationError(
      `Filter term "${raw}": operator ${term.op} cannot be used on ${spec.type} field "${key}".`,
    );
  }
  if (term.caseInsensitive && !CASE_INSENSITIVE_TYPES.includes(spec.type)) {
    throw validationError(
      `Filter term "${raw}": case-insensitive operators cannot be used on ${spec.type} field "${key}".`,
    );
  }
}

function pairWhere(field: ResolvedField, term: ParsedTerm, value: string | null, raw: string): Where {
  if (value === null) checkNullable(field, raw);
  else checkNotEmpty(field, term.op, value, raw);

  if (field.spec.toWhere) {
    if (value !== null) convertValue(field, term.caseInsensitive, value, raw);
    return field.spec.toWhere(term.op, value, term.caseInsensitive);
  }
  if (value === null) return nested(field.path, term.op === "==" ? null : { not: null });

  const converted = convertValue(field, term.caseInsensitive, value, raw);
  const condition: Where = { [PRISMA_OPERATOR[term.op]]: converted };
  if (term.caseInsensitive && field.spec.type === "string") condition.mode = "insensitive";
  return NEGATED_OPERATORS.includes(term.op) ? negated(field, condition) : nested(field.path, condition);
}

function checkNullable({ key, spec }: ResolvedField, raw: string): void {
  if (spec.nullable !== true) throw validationError(`Filter term "${raw}": field "${key}" is never null.`);
}

function checkNotEmpty({ key, spec }: ResolvedField, op: SieveOperator, value: string, raw: string): void {
  if (value !== "") return;
  if (spec.type === "string" && EQUALITY.includes(op)) return;
  throw validationError(`Filter term "${raw}" has an empty value for field "${key}".`);
}

/** SQL's `col <> x` skips NULL rows, but a client asking "not x" expects them too. */
function negated(field: ResolvedField, condition: Where): Where {
  const not = { NOT: nested(field.path, condition) };
  return field.spec.nullable !== true ? not : { OR: [nested(field.path, null), not] };
}

/** `["customer", "name"]` + cond → `{customer: {name: cond}}`. */
function nested(path: readonly string[], leaf: unknown): Where {
  return path.reduceRight<unknown>((inner, segment) => ({ [segment]: inner }), leaf) as Where;
}

// ---------------------------------------------------------------------------------------------
// Value conversion
// ---------------------------------------------------------------------------------------------

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;
const INT4_MIN = -2_147_483_648;
const INT4_MAX = 2_147_483_647;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

function convertValue(field: ResolvedField, caseInsensitive: boolean, value: string, raw: string): unknown {
  const invalid = (expected: string) =>
    validationError(`Filter term "${raw}": "${value}" is not ${expected} (field "${field.key}").`);

  switch (field.spec.type) {
    case "string":
      return value;
    case "number": {
      const n = Number(value);
      if (!DECIMAL.test(value)) throw invalid("a number");
      if (!Number.isFinite(n)) throw invalid("a finite number");
      return n;
    }
    case "integer": {
      // Integer columns are int4: a value outside it is no integer any row could hold.
      const n = Number(value);
      if (!INTEGER.test(value) || !Number.isSafeInteger(n)) throw invalid("an integer");
      if (n < INT4_MIN || n > INT4_MAX) throw invalid(`between ${INT4_MIN} and ${INT4_MAX}`);
      return n;
    }
    case "boolean": {
      const lower = value.toLowerCase();
      if (lower !== "true" && lower !== "false") throw invalid("true or false");
      return lower === "true";
    }
    case "uuid":
      if (!UUID.test(value)) throw invalid("a valid UUID");
      return value.toLowerCase();
    case "date": {
      const date = parseIsoDate(value);
      if (!date) throw invalid("an ISO 8601 date or date-time");
      return date;
    }
    case "enum": {
      const match = enumValue(field.spec.values ?? [], value, caseInsensitive);
      if (match === undefined) throw invalid(`one of ${(field.spec.values ?? []).join(", ")}`);
      return match;
    }
  }
}

function enumValue(values: readonly string[], value: string, caseInsensitive: boolean): string | undefined {
  if (values.includes(value)) return value;
  return caseInsensitive ? values.find((v) => v.toLowerCase() === value.toLowerCase()) : undefined;
}

/** A date-time without an offset is read as UTC, so results never depend on the server's time zone. */
function parseIsoDate(value: string): Date | undefined {
  const m = ISO_DATE.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map((part) => Number(part ?? 0));
  const millis = Math.floor(Number(m[7] ?? 0) * 1000);
  const offsetMinutes = parseOffset(m[8]);

  // setUTCFullYear rather than Date.UTC, which maps years 0–99 to 1900–1999.
  const local = new Date(0);
  local.setUTCFullYear(year, month - 1, day);
  local.setUTCHours(hour, minute, second, millis);
  const valid =
    local.getUTCMonth() === month - 1 &&
    local.getUTCDate() === day &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59;
  if (!valid || offsetMinutes === undefined) return undefined;
  return new Date(local.getTime() - offsetMinutes * 60_000);
}

function parseOffset(offset: string | undefined): number | undefined {
  if (offset === undefined || offset.toUpperCase() === "Z") return 0;
  const digits = offset.slice(1).replace(":", "");
  const hours = Number(digits.slice(0, 2));
  const minutes = Number(digits.slice(2));
  if (hours > 23 || minutes > 59) return undefined;
  return (offset.startsWith("-") ? -1 : 1) * (hours * 60 + minutes);
}

// ---------------------------------------------------------------------------------------------
// sortOrder → Prisma orderBy
// ---------------------------------------------------------------------------------------------

/** `name,-createdAt` → `[{name: "asc"}, {createdAt: "desc"}]`; undefined when there is nothing to sort by. */
export function sieveOrderBy(
  sortOrder: string | undefined | null,
  whitelist: SieveWhitelist,
): Where[] | undefined {
  if (sortOrder == null || sortOrder.trim() === "") return undefined;
  const seen = new Set<string>();
  return sortOrder.split(",").map((part) => {
    const entry = part.trim();
    const descending = entry.startsWith("-");
    const name = (descending ? entry.slice(1) : entry).trim();
    if (name === "") throw validationError(`sortOrder "${sortOrder}" contains an empty field name.`);
    if (!FIELD_NAME.test(name))
      throw validationError(`sortOrder "${sortOrder}": "${entry}" is not a valid field name.`);

    const field = resolveField(name, whitelist, "sort", sortOrder);
    if (seen.has(field.key))
      throw validationError(`sortOrder "${sortOrder}" names field "${field.key}" more than once.`);
    seen.add(field.key);
    return nested(field.path, descending ? "desc" : "asc");
  });
}
