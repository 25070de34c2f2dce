import { z } from "zod";

/**
 * docs/api.md "Entitlement and offer" keyIssuancePolicy: how an entitlement's activation codes look.
 * Owned by the activation-code work; offers and entitlements store it as JSON and validate it
 * with ZKeyIssuancePolicy (a policy that cannot produce enough distinct codes is refused when saved,
 * docs/architecture.md section 5).
 *
 * Template placeholders (every other character is a literal):
 *   `X` one random symbol of the alphabet,
 *   `#` one decimal digit of the sequence number (all `#` together, left to right, hold the
 *       zero-padded number; issuance fails once the number no longer fits),
 *   `?` the check symbol (exactly one when `checksum` is not `None`, none otherwise).
 * Literals are letters and digits other than X/x, and the separators `-`, `_`, `.`, ` `, `/`.
 */

export const KEY_TEMPLATE_RANDOM = "X";
export const KEY_TEMPLATE_SEQUENCE = "#";
export const KEY_TEMPLATE_CHECK = "?";
/** Characters normalizeStripSeparators removes (and the only non-alphanumeric literals a template may hold). */
export const KEY_SEPARATORS = ["-", "_", ".", " ", "/"] as const;

/** Built-in alphabets, in their canonical (upper-case) form. */
export const keyAlphabets = {
  /** Crockford base 32: digits and letters without I, L, O, U. */
  CrockfordBase32: "0123456789ABCDEFGHJKMNPQRSTVWXYZ",
  /** RFC 4648 base 32: A–Z and 2–7. */
  Base32Rfc4648: "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567",
  /** Digits only. */
  Numeric: "0123456789",
  /** Digits and A–Z. */
  AlphanumericUpper: "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
  /** Upper-case hexadecimal. */
  Hex: "0123456789ABCDEF",
} as const;
export const keyAlphabetNames = [
  "CrockfordBase32",
  "Base32Rfc4648",
  "Numeric",
  "AlphanumericUpper",
  "Hex",
  "Custom",
] as const;
export const keyCaseStyles = ["Upper", "Lower"] as const;
/** `LuhnModN`: Luhn mod N over the alphabet's symbols (N = alphabet size), one check symbol. */
export const keyChecksums = ["None", "LuhnModN"] as const;
export const keySequenceScopes = ["Entitlement", "Tenant"] as const;

/** Crockford's confusables, applied by normalizeMapConfusables: O → 0, I and L → 1. */
export const CONFUSABLES: Readonly<Record<string, string>> = { O: "0", I: "1", L: "1" };

/**
 * The smallest number of distinct random parts a template must be able to produce: 10^12
 * (12 decimal digits, or 8 Crockford symbols). Codes are unique across the whole service and
 * guessing one activates a license, so a smaller space is refused when the policy is saved.
 */
export const MIN_KEY_SPACE = 1e12;
export const MAX_TEMPLATE_LENGTH = 64;

export const ZKeyIssuancePolicy = z
  .object({
    enabled: z.boolean().default(true),
    template: z.string().min(1).max(MAX_TEMPLATE_LENGTH).default("XXXX-XXXX-XXXX-XXXX"),
    alphabet: z.enum(keyAlphabetNames).default("CrockfordBase32"),
    /** Required when alphabet is `Custom`: 2–64 distinct letters or digits (compared ignoring case). */
    customAlphabet: z.string().nullable().default(null),
    caseStyle: z.enum(keyCaseStyles).default("Upper"),
    checksum: z.enum(keyChecksums).default("None"),
    sequenceScope: z.enum(keySequenceScopes).default("Entitlement"),
    sequenceStart: z.number().int().nonnegative().max(999_999_999).default(1),
    collisionRetryLimit: z.number().int().min(0).max(100).default(5),
    normalizeStripSeparators: z.boolean().default(true),
    normalizeCaseInsensitive: z.boolean().default(true),
    normalizeMapConfusables: z.boolean().default(true),
    /** The last sequence number issued (null before the first); written by issuance only. */
    sequenceCurrent: z.number().int().nonnegative().max(999_999_999).nullable().default(null),
  })
  .superRefine((policy, ctx) => {
    for (const issue of keyIssuancePolicyProblems(policy))
      ctx.addIssue({ code: "custom", message: issue.message, path: [issue.path] });
  });
export type TKeyIssuancePolicy = z.output<typeof ZKeyIssuancePolicy>;
export type TKeyIssuancePolicyInput = z.input<typeof ZKeyIssuancePolicy>;

/** The policy an offer or entitlement gets when none is given. */
export const defaultKeyIssuancePolicy = (): TKeyIssuancePolicy => ZKeyIssuancePolicy.parse({});

type PolicyShape = Omit<
  TKeyIssuancePolicy,
  "sequenceCurrent" | "enabled" | "collisionRetryLimit" | "sequenceStart" | "sequenceScope"
> &
  Partial<TKeyIssuancePolicy>;

/** The symbols codes are made of, in the policy's case style (null when the custom alphabet is missing or invalid). */
export function effectiveAlphabet(
  policy: Pick<PolicyShape, "alphabet" | "customAlphabet" | "caseStyle">,
): string | null {
  const raw = policy.alphabet === "Custom" ? policy.customAlphabet : keyAlphabets[policy.alphabet];
  if (!raw) return null;
  return policy.caseStyle === "Lower" ? raw.toLowerCase() : raw.toUpperCase();
}

const isSeparator = (c: string) => (KEY_SEPARATORS as readonly string[]).includes(c);
const isLiteral = (c: string) => isSeparator(c) || (/^[A-Za-z0-9]$/.test(c) && c !== "X" && c !== "x");

/** Every reason a policy cannot be saved; empty when it is valid. */
export function keyIssuancePolicyProblems(policy: PolicyShape): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  if (policy.alphabet === "Custom") {
    const custom = policy.customAlphabet ?? "";
    if (!/^[A-Za-z0-9]{2,64}$/.test(custom)) {
      problems.push({
        path: "customAlphabet",
        message: "With alphabet Custom, customAlphabet must be 2–64 letters or digits.",
      });
    } else if (new Set(custom.toUpperCase()).size !== custom.length) {
      problems.push({
        path: "customAlphabet",
        message: "customAlphabet must not repeat a symbol (letters are compared ignoring case).",
      });
    }
  } else if (policy.customAlphabet) {
    problems.push({ path: "customAlphabet", message: "customAlphabet is only used with alphabet Custom." });
  }
  const alphabet = effectiveAlphabet(policy);
  const template = policy.template;
  const bad = [...template].find((c) => c !== "X" && c !== "#" && c !== "?" && !isLiteral(c));
  if (bad !== undefined) {
    problems.push({
      path: "template",
      message: `The template may hold X (random), # (sequence digit), ? (check symbol), letters, digits and - _ . / space; "${bad}" is none of these.`,
    });
  }
  const checks = [...template].filter((c) => c === "?").length;
  if (policy.checksum === "None" && checks > 0)
    problems.push({ path: "template", message: "A check symbol (?) needs a checksum other than None." });
  if (policy.checksum !== "None" && checks !== 1)
    problems.push({
      path: "template",
      message: `checksum ${policy.checksum} needs exactly one check symbol (?) in the template.`,
    });
  const randomSlots = [...template].filter((c) => c === "X").length;
  const sequenceDigits = [...template].filter((c) => c === "#").length;
  if (sequenceDigits > 9) problems.push({ path: "template", message: "At most 9 sequence digits (#)." });
  if (alphabet) {
    const space = alphabet.length ** randomSlots;
    if (space < MIN_KEY_SPACE) {
      problems.push({
        path: "template",
        message: `The template's ${randomSlots} random symbol(s) over an alphabet of ${alphabet.length} give ${space.toExponential(2)} distinct codes; at least ${MIN_KEY_SPACE.toExponential(0)} are required (codes are unique across the service).`,
      });
    }
    if (
      policy.checksum !== "None" &&
      sequenceDigits > 0 &&
      ![..."0123456789"].every((d) => alphabet.toUpperCase().includes(d))
    ) {
      problems.push({
        path: "checksum",
        message: "A checksum over sequence digits (#) needs an alphabet that holds all ten digits.",
      });
    }
    if (policy.normalizeMapConfusables) {
      const upper = alphabet.toUpperCase();
      const clash = Object.entries(CONFUSABLES).find(
        ([from, to]) =>
          upper.includes(from) &&
          (upper.includes(to) ||
            Object.entries(CONFUSABLES).some(([f2, t2]) => f2 !== from && t2 === to && upper.includes(f2))),
      );
      if (clash) {
        problems.push({
          path: "normalizeMapConfusables",
          message: `normalizeMapConfusables would merge distinct symbols of this alphabet (${clash[0]} → ${clash[1]}); turn it off or choose an alphabet without them.`,
        });
      }
    }
    if (
      sequenceDigits > 0 &&
      policy.sequenceStart !== undefined &&
      String(policy.sequenceStart).length > sequenceDigits
    ) {
      problems.push({
        path: "sequenceStart",
        message: `sequenceStart does not fit in the template's ${sequenceDigits} sequence digit(s).`,
      });
    }
  }
  return problems;
}
