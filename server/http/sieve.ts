/**
 * The Sieve filter/sort grammar of every list endpoint, translated into Prisma `where` / `orderBy`
 * objects (never SQL).
 *
 *   filter    = term *("," term)                     terms are ANDed
 *   term      = names operator values
 *   names     = name *("|" name)                     OR over fields
 *   values    = value *("|" value)                   OR over values
 *   sortOrder = ["-"] name *("," ["-"] name)         "-" means descending
 *
 * A backslash makes the next character literal (`\,` `\|` `\\`, but also `\*` or `\null`), so any
 * value can be written. Field names are matched case-insensitively against a whitelist.
 * Every problem is an AppError "license.validation_error" whose detail names the offending term.
 */
import { validationError } from "./errors";

export type SieveFieldType = "string" | "number" | "integer" | "boolean" | "date" | "uuid" | "enum";
export type SieveOperator = "==" | "!=" | ">" | "<" | ">=" | "<=" | "@=" | "_=" | "_-=" | "!@=" | "!_=" | "!_-=";
export type SieveFieldSpec = {
  type: SieveFieldType;
  /** Prisma field path, dot-separated for relations ("customer.name"). Defaults to the whitelist key. */
  column?: string;
  filterable?: boolean; // default true
  sortable?: boolean; // default true
  /**
   * Whether the column can hold NULL (default false). Prisma refuses `{col: null}` on required
   * columns, so only nullable ones get the "or is null" branch in negations and accept
   * `==null` / `!=null`; required ones refuse those with a 400.
   */
  nullable?: boolean;
  /** For enum fields: the allowed values (matched case-sensitively, or case-insensitively with the * forms). */
  values?: readonly string[];
  /** Escape hatch for fields that are not a plain column (e.g. an array of tag names):
   *  returns the Prisma where fragment for one (operator, value) pair. */
  toWhere?: (op: SieveOperator, value: string | null, caseInsensitive: boolean) => Record<string, unknown>;
};
export type SieveWhitelist = Record<string, SieveFieldSpec>;
export type ParsedTerm = { fields: string[]; op: SieveOperator; caseInsensitive: boolean; values: (string | null)[] };

type Where = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Grammar
// ---------------------------------------------------------------------------------------------

const CASE_INSENSITIVE_OPERATORS: readonly SieveOperator[] = ["==", "!=", "@=", "_=", "_-=", "!@=", "!_=", "!_-="];
const ALL_OPERATORS: readonly SieveOperator[] = ["==", "!=", ">", "<", ">=", "<=", "@=", "_=", "_-=", "!@=", "!_=", "!_-="];

/** Every operator token, longest first so that `!_-=*` wins over `!_-=`, `_-=` and `>=` over `>`. */
const OPERATOR_TOKENS: readonly string[] = [...ALL_OPERATORS, ...CASE_INSENSITIVE_OPERATORS.map((op) => `${op}*`)].sort(
  (a, b) => b.length - a.length,
);

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_.]*$/;

/** One character of the filter, remembering whether a backslash made it literal. */
type Char = { ch: string; escaped: boolean };
type LexedTerm = { raw: string; chars: Char[] };

/** Pure grammar: splits a filter into terms without looking at any whitelist. */
export function parseSieveFilter(filter: string): ParsedTerm[] {
  if (filter.trim() === "") return [];
  return lexTerms(filter).map(parseTerm);
}

/** Splits on unescaped commas and resolves backslash escapes. */
function lexTerms(filter: string): LexedTerm[] {
  const terms: LexedTerm[] = [];
  let current: LexedTerm = { raw: "", chars: [] };
  let escaping = false;
  for (const ch of filter) {
    if (escaping) {
      current.chars.push({ ch, escaped: true });
      current.raw += ch;
      escaping = false;
    } else if (ch === "\\") {
      current.raw += ch;
      escaping = true;
    } else if (ch === ",") {
      terms.push(current);
      current = { raw: "", chars: [] };
    } else {
      current.chars.push({ ch, escaped: false });
      current.raw += ch;
    }
  }
  if (escaping) throw validationError(`Filter term "${current.raw.trim()}" ends with a lone backslash; write \\\\ for a literal one.`);
  terms.push(current);
  return terms;
}

function parseTerm(term: LexedTerm): ParsedTerm {
  const raw = term.raw.trim();
  const chars = trimUnescapedWhitespace(term.chars);
  if (chars.length === 0) throw validationError("Filter contains an empty term (check for a stray comma).");

  const found = findOperator(chars);
  if (!found) throw validationError(`Filter term "${raw}" has no valid operator.`);

  const caseInsensitive = found.token.endsWith("*");
  const op = (caseInsensitive ? found.token.slice(0, -1) : found.token) as SieveOperator;
  const fields = parseNames(chars.slice(0, found.index), raw);
  const values = splitOnUnescaped(chars.slice(found.index + found.token.length), "|").map((value) =>
    toTermValue(value, op),
  );
  return { fields, op, caseInsensitive, values };
}

function trimUnescapedWhitespace(chars: Char[]): Char[] {
  const isBlank = (c: Char | undefined) => c !== undefined && !c.escaped && /\s/.test(c.ch);
  let start = 0;
  let end = chars.length;
  while (start < end && isBlank(chars[start])) start++;
  while (end > start && isBlank(chars[end - 1])) end--;
  return chars.slice(start, end);
}

/** The leftmost operator; at one position the longest token wins. Escaped characters never form one. */
function findOperator(chars: Char[]): { index: number; token: string } | undefined {
  for (let index = 0; index < chars.length; index++) {
    const token = OPERATOR_TOKENS.find((candidate) => matchesAt(chars, index, candidate));
    if (token) return { index, token };
  }
  return undefined;
}

function matchesAt(chars: Char[], index: number, token: string): boolean {
  return [...token].every((ch, offset) => {
    const c = chars[index + offset];
    return c !== undefined && !c.escaped && c.ch === ch;
  });
}

function parseNames(chars: Char[], raw: string): string[] {
  if (chars.some((c) => c.escaped)) throw validationError(`Filter term "${raw}": escapes are only allowed in values.`);
  const names = splitOnUnescaped(chars, "|").map((name) => text(name).trim());
  for (const name of names) {
    if (name === "") throw validationError(`Filter term "${raw}" is missing a field name.`);
    if (!FIELD_NAME.test(name)) throw validationError(`Filter term "${raw}": "${name}" is not a valid field name.`);
  }
  return names;
}

function splitOnUnescaped(chars: Char[], separator: string): Char[][] {
  const parts: Char[][] = [[]];
  for (const c of chars) {
    if (!c.escaped && c.ch === separator) parts.push([]);
    else parts[parts.length - 1].push(c);
  }
  return parts;
}

/** An unescaped `null` with `==` / `!=` means IS NULL / IS NOT NULL; `\null` is the text "null". */
function toTermValue(chars: Char[], op: SieveOperator): string | null {
  const isNullLiteral = (op === "==" || op === "!=") && text(chars) === "null" && chars.every((c) => !c.escaped);
  return isNullLiteral ? null : text(chars);
}

function text(chars: Char[]): string {
  return chars.map((c) => c.ch).join("");
}

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
  const lexed = lexTerms(filter);
  const conditions = lexed.map((term) => termWhere(parseTerm(term), term.raw.trim(), whitelist));
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

function resolveField(name: string, whitelist: SieveWhitelist, usage: "filter" | "sort", raw: string): ResolvedField {
  const keys = Object.keys(whitelist);
  const key = keys.includes(name) ? name : keys.find((k) => k.toLowerCase() === name.toLowerCase());
  const usable = (k: string) => (usage === "filter" ? whitelist[k].filterable : whitelist[k].sortable) !== false;
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
    throw validationError(`Filter term "${raw}": operator ${term.op} cannot be used on ${spec.type} field "${key}".`);
  }
  if (term.caseInsensitive && !CASE_INSENSITIVE_TYPES.includes(spec.type)) {
    throw validationError(`Filter term "${raw}": case-insensitive operators cannot be used on ${spec.type} field "${key}".`);
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
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

function convertValue(field: ResolvedField, caseInsensitive: boolean, value: string, raw: string): unknown {
  const invalid = (expected: string) =>
    validationError(`Filter term "${raw}": "${value}" is not ${expected} (field "${field.key}").`);

  switch (field.spec.type) {
    case "string":
      return value;
    case "number":
      if (!DECIMAL.test(value)) throw invalid("a number");
      return Number(value);
    case "integer": {
      const n = Number(value);
      if (!INTEGER.test(value) || !Number.isSafeInteger(n)) throw invalid("an integer");
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
    local.getUTCMonth() === month - 1 && local.getUTCDate() === day && hour <= 23 && minute <= 59 && second <= 59;
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
export function sieveOrderBy(sortOrder: string | undefined | null, whitelist: SieveWhitelist): Where[] | undefined {
  if (sortOrder == null || sortOrder.trim() === "") return undefined;
  const seen = new Set<string>();
  return sortOrder.split(",").map((part) => {
    const entry = part.trim();
    const descending = entry.startsWith("-");
    const name = (descending ? entry.slice(1) : entry).trim();
    if (name === "") throw validationError(`sortOrder "${sortOrder}" contains an empty field name.`);
    if (!FIELD_NAME.test(name)) throw validationError(`sortOrder "${sortOrder}": "${entry}" is not a valid field name.`);

    const field = resolveField(name, whitelist, "sort", sortOrder);
    if (seen.has(field.key)) throw validationError(`sortOrder "${sortOrder}" names field "${field.key}" more than once.`);
    seen.add(field.key);
    return nested(field.path, descending ? "desc" : "asc");
  });
}
