/**
 * The Sieve filter/sort grammar of every list endpoint (the parser and the whitelist types; the
 * translation into Prisma `where` / `orderBy` objects is server/db/sieve-where.ts).
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
import { validationError } from "./errors.ts";

export type SieveFieldType = "string" | "number" | "integer" | "boolean" | "date" | "uuid" | "enum";
export type SieveOperator =
  "==" | "!=" | ">" | "<" | ">=" | "<=" | "@=" | "_=" | "_-=" | "!@=" | "!_=" | "!_-=";
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
export type ParsedTerm = {
  fields: string[];
  op: SieveOperator;
  caseInsensitive: boolean;
  values: (string | null)[];
};

// ---------------------------------------------------------------------------------------------
// Grammar
// ---------------------------------------------------------------------------------------------

const CASE_INSENSITIVE_OPERATORS: readonly SieveOperator[] = [
  "==",
  "!=",
  "@=",
  "_=",
  "_-=",
  "!@=",
  "!_=",
  "!_-=",
];
export const ALL_OPERATORS: readonly SieveOperator[] = [
  "==",
  "!=",
  ">",
  "<",
  ">=",
  "<=",
  "@=",
  "_=",
  "_-=",
  "!@=",
  "!_=",
  "!_-=",
];

/** Every operator token, longest first so that `!_-=*` wins over `!_-=`, `_-=` and `>=` over `>`. */
const OPERATOR_TOKENS: readonly string[] = [
  ...ALL_OPERATORS,
  ...CASE_INSENSITIVE_OPERATORS.map((op) => `${op}*`),
].sort((a, b) => b.length - a.length);

export const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_.]*$/;

/** One character of the filter, remembering whether a backslash made it literal. */
type Char = { ch: string; escaped: boolean };
type LexedTerm = { raw: string; chars: Char[] };

/** Pure grammar: splits a filter into terms without looking at any whitelist. */
export function parseSieveFilter(filter: string): ParsedTerm[] {
  return parseSieveTerms(filter).map(({ term }) => term);
}

/** The terms with the text each was written as, for messages that name the offending term. */
export function parseSieveTerms(filter: string): { raw: string; term: ParsedTerm }[] {
  if (filter.trim() === "") return [];
  return lexTerms(filter).map((lexed) => ({ raw: lexed.raw.trim(), term: parseTerm(lexed) }));
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
  if (escaping)
    throw validationError(
      `Filter term "${current.raw.trim()}" ends with a lone backslash; write \\\\ for a literal one.`,
    );
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
  if (chars.some((c) => c.escaped))
    throw validationError(`Filter term "${raw}": escapes are only allowed in values.`);
  const names = splitOnUnescaped(chars, "|").map((name) => text(name).trim());
  for (const name of names) {
    if (name === "") throw validationError(`Filter term "${raw}" is missing a field name.`);
    if (!FIELD_NAME.test(name))
      throw validationError(`Filter term "${raw}": "${name}" is not a valid field name.`);
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
  const isNullLiteral =
    (op === "==" || op === "!=") && text(chars) === "null" && chars.every((c) => !c.escaped);
  return isNullLiteral ? null : text(chars);
}

function text(chars: Char[]): string {
  return chars.map((c) => c.ch).join("");
}
