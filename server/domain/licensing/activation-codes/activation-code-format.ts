import { randomBytes } from "node:crypto";
import {
  CONFUSABLES,
  KEY_SEPARATORS,
  KEY_TEMPLATE_CHECK,
  KEY_TEMPLATE_RANDOM,
  KEY_TEMPLATE_SEQUENCE,
  effectiveAlphabet,
  type TKeyIssuancePolicy,
} from "../../entitlements/entitlement/key-issuance-policy.schemas.ts";

/**
 * Pure code generation and normalization for activation codes (no database). See
 * key-issuance-policy.schemas.ts for the template language.
 */

export type NormalizationFlags = Pick<
  TKeyIssuancePolicy,
  "normalizeStripSeparators" | "normalizeCaseInsensitive" | "normalizeMapConfusables"
>;
export type FormatPolicy = Pick<
  TKeyIssuancePolicy,
  "template" | "alphabet" | "customAlphabet" | "caseStyle" | "checksum"
> &
  NormalizationFlags;

/** A source of uniformly random integers in [0, n). */
export type RandomSource = (n: number) => number;

/** crypto-strong, unbiased (rejection sampling over single bytes; alphabets have at most 64 symbols). */
export const cryptoRandom: RandomSource = (() => {
  let pool = Buffer.alloc(0);
  let at = 0;
  return (n: number) => {
    const limit = 256 - (256 % n);
    for (;;) {
      if (at >= pool.length) {
        pool = randomBytes(4096);
        at = 0;
      }
      const byte = pool[at++];
      if (byte < limit) return byte % n;
    }
  };
})();

function alphabetOf(policy: FormatPolicy): string {
  const alphabet = effectiveAlphabet(policy);
  if (!alphabet) throw new Error("The key issuance policy has no usable alphabet.");
  return alphabet;
}

/** Luhn mod N (N = alphabet size): the check symbol for the given payload symbols. */
export function luhnModNCheckSymbol(payload: string, alphabet: string): string {
  const n = alphabet.length;
  let factor = 2;
  let sum = 0;
  for (let i = payload.length - 1; i >= 0; i--) {
    const codePoint = alphabet.indexOf(payload[i]);
    if (codePoint < 0) throw new Error(`"${payload[i]}" is not a symbol of the alphabet.`);
    let addend = factor * codePoint;
    factor = factor === 2 ? 1 : 2;
    addend = Math.floor(addend / n) + (addend % n);
    sum += addend;
  }
  return alphabet[(n - (sum % n)) % n];
}

/** Whether payload + check symbol satisfies Luhn mod N. */
export function luhnModNValid(payloadWithCheck: string, alphabet: string): boolean {
  const n = alphabet.length;
  let factor = 1;
  let sum = 0;
  for (let i = payloadWithCheck.length - 1; i >= 0; i--) {
    const codePoint = alphabet.indexOf(payloadWithCheck[i]);
    if (codePoint < 0) return false;
    let addend = factor * codePoint;
    factor = factor === 2 ? 1 : 2;
    addend = Math.floor(addend / n) + (addend % n);
    sum += addend;
  }
  return sum % n === 0;
}

/** How many `#` the template holds (the width of the zero-padded sequence number). */
export const sequenceWidth = (template: string) =>
  [...template].filter((c) => c === KEY_TEMPLATE_SEQUENCE).length;

/** Whether a sequence number fits the template (always true when there are no `#`). */
export const sequenceFits = (template: string, sequence: number) => {
  const width = sequenceWidth(template);
  return width === 0 || String(sequence).length <= width;
};

/**
 * One code following the template: random symbols for `X`, the zero-padded sequence number for
 * the `#` run(s), the check symbol (over every `X` and `#` symbol in template order) for `?`.
 */
export function generateActivationCode(
  policy: FormatPolicy,
  sequence: number | null,
  random: RandomSource = cryptoRandom,
): string {
  const alphabet = alphabetOf(policy);
  const width = sequenceWidth(policy.template);
  const digits = width > 0 ? String(sequence ?? 0).padStart(width, "0") : "";
  if (digits.length > width) throw new Error("The sequence number does not fit the template.");
  let digitAt = 0;
  let payload = "";
  const chars: string[] = [];
  for (const c of policy.template) {
    if (c === KEY_TEMPLATE_RANDOM) {
      const symbol = alphabet[random(alphabet.length)];
      payload += symbol;
      chars.push(symbol);
    } else if (c === KEY_TEMPLATE_SEQUENCE) {
      const digit = digits[digitAt++];
      payload += digit;
      chars.push(digit);
    } else {
      chars.push(c);
    }
  }
  const checkAt = chars.indexOf(KEY_TEMPLATE_CHECK);
  if (policy.checksum === "LuhnModN" && checkAt >= 0) {
    // Sequence digits take the alphabet's case (digits have none); the refine guarantees they are symbols.
    chars[checkAt] = luhnModNCheckSymbol(payload, alphabet);
  }
  return chars.join("");
}

const mapConfusables = (s: string) => s.replace(/[OILoil]/g, (c) => CONFUSABLES[c.toUpperCase()]);
const stripSeparators = (s: string) =>
  [...s].filter((c) => !(KEY_SEPARATORS as readonly string[]).includes(c)).join("");

/** The form a code is compared in under a policy's normalization flags (surrounding blanks always trimmed). */
export function normalizeActivationCode(input: string, flags: NormalizationFlags): string {
  let s = input.trim();
  if (flags.normalizeStripSeparators) s = stripSeparators(s);
  if (flags.normalizeCaseInsensitive) s = s.toUpperCase();
  if (flags.normalizeMapConfusables) s = mapConfusables(s);
  return s;
}

/**
 * The service-wide lookup key: the most forgiving normalization (no separators, upper case,
 * confusables mapped). Its unique index guarantees that no input can ever name two codes,
 * whatever each code's own flags; the code's own normalization is then checked on the one row.
 */
export const activationCodeLookupKey = (input: string) =>
  normalizeActivationCode(input, {
    normalizeStripSeparators: true,
    normalizeCaseInsensitive: true,
    normalizeMapConfusables: true,
  });

/** Whether a code matches its template, alphabet, case and checksum (used by tests and diagnostics). */
export function conformsToPolicy(code: string, policy: FormatPolicy): boolean {
  const alphabet = alphabetOf(policy);
  const template = [...policy.template];
  const chars = [...code];
  if (chars.length !== template.length) return false;
  let payload = "";
  let check = "";
  for (let i = 0; i < template.length; i++) {
    const t = template[i];
    const c = chars[i];
    if (t === KEY_TEMPLATE_RANDOM) {
      if (!alphabet.includes(c)) return false;
      payload += c;
    } else if (t === KEY_TEMPLATE_SEQUENCE) {
      if (!/[0-9]/.test(c)) return false;
      payload += c;
    } else if (t === KEY_TEMPLATE_CHECK) {
      if (!alphabet.includes(c)) return false;
      check = c;
    } else if (t !== c) {
      return false;
    }
  }
  return policy.checksum === "None" || luhnModNValid(payload + check, alphabet);
}
