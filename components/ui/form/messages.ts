import type { CodeName } from "@/server/core/errors";
import { formatDate, formatQuantity } from "../format";
import type { ProblemJson } from "../problem";
import { problemSentences } from "./problem-sentences";

/**
 * The message catalogue: every zod issue and every problem codeName as a plain sentence that names
 * the field by its label and says how to fix it. Nothing else in the UI phrases a refusal, so no
 * codeName, zod path or zod's English default reaches a page.
 */

/** Stands for the field's label in a sentence made before the label is known (the form's resolver). */
export const LABEL = "{label}";

/** Every zod 4 issue code; the unit test checks each has a sentence. */
export const zodIssueCodes = [
  "invalid_type",
  "too_big",
  "too_small",
  "invalid_format",
  "not_multiple_of",
  "unrecognized_keys",
  "invalid_union",
  "invalid_key",
  "invalid_element",
  "invalid_value",
  "custom",
] as const;
export type ZodIssueCode = (typeof zodIssueCodes)[number];

/** The parts of a zod issue a sentence needs (zod's `$ZodIssue`, or the raw issue its error map sees). */
export type IssueFacts = {
  code: string;
  origin?: string;
  expected?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  exact?: boolean;
  format?: string;
  divisor?: number;
  values?: readonly unknown[];
  input?: unknown;
};

/** The other end of a number range, when the field's schema has one (so a sentence can say "between"). */
export type Range = { min?: number; max?: number };

const num = (n: number | bigint) =>
  typeof n === "bigint" ? formatQuantity(n.toString()) : formatQuantity(n);
const when = (n: number | bigint) => formatDate(new Date(Number(n)));

const formatSentences: Record<string, string> = {
  email: `Enter ${LABEL} as an email address, like name@example.com.`,
  url: `Enter ${LABEL} as a full web address, like https://example.com.`,
  uuid: `Choose ${LABEL} from the list.`,
  guid: `Choose ${LABEL} from the list.`,
  datetime: `Enter ${LABEL} as a date and time.`,
  date: `Enter ${LABEL} as a date, like 31/12/2026.`,
  time: `Enter ${LABEL} as a time, like 14:30.`,
  duration: `Enter ${LABEL} as a duration, like 30 days.`,
  ipv4: `Enter ${LABEL} as an IPv4 address, like 192.0.2.10.`,
  ipv6: `Enter ${LABEL} as an IPv6 address.`,
  cidrv4: `Enter ${LABEL} as an address range, like 192.0.2.0/24.`,
  cidrv6: `Enter ${LABEL} as an IPv6 address range.`,
  base64: `${LABEL} must be base64 text. Paste it again without changes.`,
  base64url: `${LABEL} must be base64 text. Paste it again without changes.`,
  json_string: `${LABEL} must be valid JSON.`,
  lowercase: `${LABEL} must use lower-case letters only.`,
  uppercase: `${LABEL} must use capital letters only.`,
  starts_with: `${LABEL} does not start the way it should. Check the hint below the field.`,
  ends_with: `${LABEL} does not end the way it should. Check the hint below the field.`,
  includes: `${LABEL} is missing a required part. Check the hint below the field.`,
};

const typeSentences: Record<string, string> = {
  number: `Enter ${LABEL} as a number.`,
  int: `Enter ${LABEL} as a whole number.`,
  bigint: `Enter ${LABEL} as a whole number.`,
  boolean: `Choose yes or no for ${LABEL}.`,
  date: `Enter ${LABEL} as a date.`,
  array: `Choose at least one value for ${LABEL}.`,
  object: `Fill in ${LABEL}.`,
};

function tooSmall(issue: IssueFacts, range: Range): string {
  const min = issue.minimum ?? 0;
  switch (issue.origin) {
    case "string":
      if (issue.exact) return `${LABEL} must be exactly ${num(min)} characters long.`;
      return Number(min) <= 1 ? `Enter ${LABEL}.` : `${LABEL} must be at least ${num(min)} characters long.`;
    case "array":
    case "set":
      if (issue.exact) return `Choose exactly ${num(min)} for ${LABEL}.`;
      return Number(min) <= 1
        ? `Choose at least one for ${LABEL}.`
        : `Choose at least ${num(min)} for ${LABEL}.`;
    case "date":
      return `${LABEL} must be on or after ${when(min)}.`;
    case "file":
      return `${LABEL} is empty. Choose another file.`;
    default:
      return numberRange(issue.inclusive === false ? "above" : "atLeast", min, range);
  }
}

function tooBig(issue: IssueFacts, range: Range): string {
  const max = issue.maximum ?? 0;
  switch (issue.origin) {
    case "string":
      if (issue.exact) return `${LABEL} must be exactly ${num(max)} characters long.`;
      return `${LABEL} must be ${num(max)} characters or fewer.`;
    case "array":
    case "set":
      return `Choose at most ${num(max)} for ${LABEL}.`;
    case "date":
      return `${LABEL} must be on or before ${when(max)}.`;
    case "file":
      return `${LABEL} is too large. Choose a smaller file.`;
    default:
      return numberRange(issue.inclusive === false ? "below" : "atMost", max, range);
  }
}

/** "Seats must be between 1 and 1,000,000" when both ends are known, else the one end. */
function numberRange(
  side: "above" | "atLeast" | "below" | "atMost",
  bound: number | bigint,
  range: Range,
): string {
  const lower = side === "above" || side === "atLeast";
  const other = lower ? range.max : range.min;
  if (other !== undefined && (side === "atLeast" || side === "atMost")) {
    const [lo, hi] = lower ? [bound, other] : [other, bound];
    return `${LABEL} must be between ${num(lo)} and ${num(hi)}.`;
  }
  if (side === "above")
    return Number(bound) === 0
      ? `${LABEL} must be more than 0.`
      : `${LABEL} must be more than ${num(bound)}.`;
  if (side === "atLeast") return `${LABEL} must be ${num(bound)} or more.`;
  if (side === "below") return `${LABEL} must be less than ${num(bound)}.`;
  return `${LABEL} must be ${num(bound)} or less.`;
}

const isEmpty = (input: unknown) => input === undefined || input === null || input === "";

/** The sentence of one zod issue, with `LABEL` where the field's label goes. */
export function issueTemplate(issue: IssueFacts, range: Range = {}): string {
  switch (issue.code as ZodIssueCode) {
    case "invalid_type":
      if (isEmpty(issue.input) || (typeof issue.input === "number" && Number.isNaN(issue.input)))
        return issue.expected === "number" || issue.expected === "int"
          ? `Enter ${LABEL} as a number.`
          : `Enter ${LABEL}.`;
      return (
        typeSentences[issue.expected ?? ""] ??
        `${LABEL} is not the right kind of value. Check it and try again.`
      );
    case "too_small":
      return tooSmall(issue, range);
    case "too_big":
      return tooBig(issue, range);
    case "invalid_format":
      return (
        formatSentences[issue.format ?? ""] ??
        `${LABEL} is not in the expected format. Check the hint below the field.`
      );
    case "not_multiple_of":
      return issue.divisor !== undefined && issue.divisor < 1
        ? `${LABEL} can have at most ${String(issue.divisor).split(".")[1]?.length ?? 0} decimal places.`
        : `${LABEL} must be a multiple of ${num(issue.divisor ?? 1)}.`;
    case "unrecognized_keys":
      return `${LABEL} has entries we do not recognise. Remove them and try again.`;
    case "invalid_union":
      return `${LABEL} is not in a form we accept. Check the hint below the field.`;
    case "invalid_key":
      return `${LABEL} has a name that is not accepted. Check the names you entered.`;
    case "invalid_element":
      return `One of the entries in ${LABEL} is not valid. Check each entry.`;
    case "invalid_value":
      return issue.values && issue.values.length > 0 && issue.values.length <= 6
        ? `Choose ${LABEL} from: ${issue.values.map(String).join(", ")}.`
        : `Choose ${LABEL} from the list.`;
    case "custom":
      return `${LABEL} does not fit with the other values. Check it against the hint below the field.`;
    default:
      return `${LABEL} is not valid. Check it and try again.`;
  }
}

/**
 * Puts the label in a sentence. At the start of a sentence the label keeps its capital ("Seats
 * must be…"); inside one it reads in lower case ("Enter seats."), except acronyms ("API client").
 */
export function withLabel(template: string, label: string | undefined): string {
  const name = label ?? "This value";
  const inner = /^[A-Z][a-z]/.test(name) ? name[0].toLowerCase() + name.slice(1) : name;
  const pieces = template.split(LABEL);
  return pieces.reduce((text, piece, i) => {
    if (i === 0) return piece;
    const startsSentence = text === "" || /[.:!?]\s*$/.test(text);
    return text + (startsSentence ? name : inner) + piece;
  }, "");
}

/** The sentence of one zod issue for the field labelled `label`. */
export function issueSentence(issue: IssueFacts, label: string, range: Range = {}): string {
  return withLabel(issueTemplate(issue, range), label);
}

/** The plain sentence of a problem: the catalogue's entry for its codeName, or a generic one. */
export function problemSentence(problem: Pick<ProblemJson, "codeName" | "status">): string {
  const known = problem.codeName && problem.codeName in problemSentences;
  if (known) return problemSentences[problem.codeName as CodeName];
  if (problem.status === 0) return "We could not reach the service. Check your connection and try again.";
  if (problem.status >= 500) return problemSentences["internal.error"];
  return "The request was refused. Check the values and try again.";
}

/** A server's field error shown at its field: the problem's own sentence, scoped to the label. */
export function serverFieldTemplate(codeName: string | undefined): string {
  return codeName === "license.validation_error" || !codeName
    ? `${LABEL} is not accepted. Check it against the hint below the field and try again.`
    : `${LABEL}: ${problemSentences[codeName as CodeName] ?? "this value is not accepted."}`;
}

/** Identifiers a person should not read: dotted codes and paths, camelCase and snake_case words, ids. */
const IDENTIFIER =
  /[a-z]+\.[a-z_]+|\b[a-z]+[A-Z]\w*|\b\w+_\w+\b|[0-9a-f]{8}-[0-9a-f]{4}-|\b(?:body|query|input)\.|\bexpected\b|<=|>=/;

/**
 * The server's own detail when it says something the catalogue sentence cannot (how many items
 * refer to a product) in plain words; null when it carries identifiers or repeats a validation.
 */
export function plainDetail(problem: Pick<ProblemJson, "codeName" | "detail" | "status">): string | null {
  if (!problem.detail || problem.codeName === "license.validation_error" || problem.status >= 500)
    return null;
  if (IDENTIFIER.test(problem.detail)) return null;
  return problem.detail === problemSentence(problem) ? null : problem.detail;
}

/** zod's own English ("Too big: expected number to be <=1000000"), never shown to people. */
const ZOD_DEFAULT = /^(Too (big|small)|Invalid|Unrecognized|Expected|Required\b)/;

/** A path's last name as a label: "plans.0.monthlyPrice" → "Monthly price". */
export function labelFromPath(path: string): string {
  const last =
    path
      .split(".")
      .filter((p) => p && !/^\d+$/.test(p))
      .pop() ?? "";
  const words = last
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .toLowerCase()
    .trim();
  return words ? words[0].toUpperCase() + words.slice(1) : "This value";
}

/**
 * One field error of a problem as a sentence: a catalogue template gets its label (the given one,
 * or one made from the path); a server's plain message stays; zod's English or a message with
 * identifiers becomes the catalogue's sentence for the problem.
 */
export function fieldIssueSentence(
  issue: { path: string; message: string },
  codeName: string | undefined,
  label?: string,
): string {
  const name = label ?? labelFromPath(issue.path);
  if (issue.message.includes(LABEL)) return withLabel(issue.message, name);
  // A server's own sentence ("A tag name cannot be empty.") is kept when it reads as one.
  const sentence = /^[A-Z].* .*[.!?]$/.test(issue.message);
  if (sentence && !ZOD_DEFAULT.test(issue.message) && !IDENTIFIER.test(issue.message)) return issue.message;
  return withLabel(serverFieldTemplate(codeName), name);
}
