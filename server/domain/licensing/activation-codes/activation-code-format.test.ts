import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { claimWithRetries } from "./issue-activation-codes.ts";
import {
  activationCodeLookupKey,
  conformsToPolicy,
  generateActivationCode,
  luhnModNCheckSymbol,
  luhnModNValid,
  normalizeActivationCode,
  sequenceWidth,
  type FormatPolicy,
} from "./activation-code-format.ts";
import {
  ZKeyIssuancePolicy,
  defaultKeyIssuancePolicy,
  effectiveAlphabet,
  keyAlphabets,
  type TKeyIssuancePolicy,
} from "../../entitlements/entitlement/key-issuance-policy.schemas.ts";

const issuesOf = (value: unknown) => {
  const result = ZKeyIssuancePolicy.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => i.path.join("."));
};

/** Valid policies: a template of groups of X (enough for the key-space floor), optional sequence and check symbol. */
const arbPolicy: fc.Arbitrary<TKeyIssuancePolicy> = fc
  .record({
    alphabet: fc.constantFrom(
      "CrockfordBase32",
      "Base32Rfc4648",
      "Numeric",
      "AlphanumericUpper",
      "Hex",
      "Custom" as const,
    ),
    customAlphabet: fc
      .uniqueArray(fc.constantFrom(..."ABCDEFGHJKMNPQRSTVWXYZ0123456789"), { minLength: 10, maxLength: 32 })
      .map((a) => a.join("")),
    caseStyle: fc.constantFrom("Upper", "Lower" as const),
    checksum: fc.constantFrom("None", "LuhnModN" as const),
    groups: fc.integer({ min: 3, max: 6 }),
    groupSize: fc.integer({ min: 4, max: 6 }),
    separator: fc.constantFrom("-", "_", ".", " "),
    sequenceDigits: fc.integer({ min: 0, max: 4 }),
    prefix: fc.constantFrom("", "ACME-", "K9"),
    stripSeparators: fc.boolean(),
    caseInsensitive: fc.boolean(),
  })
  .map((r) => {
    const alphabet = r.alphabet;
    const customAlphabet = alphabet === "Custom" ? r.customAlphabet : null;
    // Numeric alphabets need more slots than letters to reach the floor (10^12).
    const size = alphabet === "Custom" ? r.customAlphabet.length : keyAlphabets[alphabet].length;
    let groups = r.groups;
    while (size ** (groups * r.groupSize) < 1e12) groups++;
    const parts = Array.from({ length: groups }, () => "X".repeat(r.groupSize));
    const symbols = alphabet === "Custom" ? r.customAlphabet : keyAlphabets[alphabet];
    const withDigits = r.checksum === "None" || [..."0123456789"].every((d) => symbols.includes(d));
    if (r.sequenceDigits > 0 && withDigits) parts.push("#".repeat(r.sequenceDigits));
    if (r.checksum === "LuhnModN") parts[parts.length - 1] += "?";
    const confusablesSafe =
      alphabet === "CrockfordBase32" || alphabet === "Numeric" || alphabet === "Hex" || alphabet === "Custom";
    return ZKeyIssuancePolicy.parse({
      template: r.prefix + parts.join(r.separator),
      alphabet,
      customAlphabet,
      caseStyle: r.caseStyle,
      checksum: r.checksum,
      normalizeStripSeparators: r.stripSeparators,
      normalizeCaseInsensitive: r.caseInsensitive,
      normalizeMapConfusables: confusablesSafe,
    });
  });

const arbSequence = fc.integer({ min: 0, max: 9999 });
/** A sequence number that fits the policy's `#` digits. */
const fitting = (policy: TKeyIssuancePolicy, sequence: number) => {
  const width = sequenceWidth(policy.template);
  return width ? sequence % 10 ** width : sequence;
};

describe("key issuance policy (refused when saved)", () => {
  it("defaults to a Crockford XXXX-XXXX-XXXX-XXXX policy without checksum", () => {
    expect(defaultKeyIssuancePolicy()).toMatchObject({
      enabled: true,
      template: "XXXX-XXXX-XXXX-XXXX",
      alphabet: "CrockfordBase32",
      caseStyle: "Upper",
      checksum: "None",
      sequenceScope: "Entitlement",
      sequenceStart: 1,
      collisionRetryLimit: 5,
      sequenceCurrent: null,
    });
  });

  it("refuses a template that cannot produce enough distinct codes", () => {
    expect(issuesOf({ template: "XXXX-XXX" })).toEqual(["template"]); // 32^7 < 10^12
    expect(issuesOf({ template: "XXXX-XXXX" })).toEqual([]); // 32^8 ≥ 10^12
    expect(issuesOf({ template: "####-####-#" })).toEqual(["template"]); // sequence digits are not random
    expect(issuesOf({ template: "XXXX-XXXX-XXXX", alphabet: "Numeric" })).toEqual([]);
    expect(issuesOf({ template: "XXXX-XXXX-XXX", alphabet: "Numeric" })).toEqual(["template"]);
  });

  it("refuses unknown template characters, misplaced check symbols and bad custom alphabets", () => {
    expect(issuesOf({ template: "XXXX-XXXX+XXXX" })).toEqual(["template"]);
    expect(issuesOf({ template: "XXXX-XXXX-XXX?" })).toEqual(["template"]);
    expect(issuesOf({ template: "XXXX-XXXX-XXXX", checksum: "LuhnModN" })).toEqual(["template"]);
    expect(issuesOf({ template: "XXXX-XXXX-XXX?", checksum: "LuhnModN" })).toEqual([]);
    expect(issuesOf({ alphabet: "Custom" })).toContain("customAlphabet");
    expect(issuesOf({ alphabet: "Custom", customAlphabet: "ABCDEFGHJKa" })).toContain("customAlphabet");
    expect(issuesOf({ alphabet: "Numeric", customAlphabet: "ABC" })).toContain("customAlphabet");
    expect(
      issuesOf({
        alphabet: "Base32Rfc4648",
        template: "XXXX-XXXX-##?",
        checksum: "LuhnModN",
        normalizeMapConfusables: false,
      }),
    ).toEqual(["checksum"]);
    expect(issuesOf({ template: "XXXX-XXXX-#", sequenceStart: 10 })).toEqual(["sequenceStart"]);
  });

  it("refuses confusable mapping over an alphabet that holds both sides of a pair", () => {
    expect(issuesOf({ alphabet: "AlphanumericUpper" })).toEqual(["normalizeMapConfusables"]);
    expect(issuesOf({ alphabet: "Base32Rfc4648" })).toEqual(["normalizeMapConfusables"]);
    expect(issuesOf({ alphabet: "Base32Rfc4648", normalizeMapConfusables: false })).toEqual([]);
    expect(issuesOf({ alphabet: "Numeric", template: "XXXX-XXXX-XXXX" })).toEqual([]);
  });
});

describe("Luhn mod N", () => {
  it("a check symbol makes the payload valid, and any single-symbol change is detected", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Object.values(keyAlphabets)),
        fc.array(fc.nat(), { minLength: 1, maxLength: 20 }),
        fc.nat(),
        fc.integer({ min: 1, max: 63 }),
        (alphabet, picks, at, delta) => {
          const payload = picks.map((p) => alphabet[p % alphabet.length]).join("");
          const full = payload + luhnModNCheckSymbol(payload, alphabet);
          expect(luhnModNValid(full, alphabet)).toBe(true);
          const i = at % full.length;
          const changed =
            alphabet[(alphabet.indexOf(full[i]) + 1 + (delta % (alphabet.length - 1))) % alphabet.length];
          expect(luhnModNValid(full.slice(0, i) + changed + full.slice(i + 1), alphabet)).toBe(false);
        },
      ),
    );
  });

  it("decimal Luhn mod 10 agrees with the credit-card algorithm", () => {
    expect(luhnModNCheckSymbol("7992739871", "0123456789")).toBe("3");
  });
});

describe("activation code generation (property tests)", () => {
  it("every generated code matches its template, alphabet, case and checksum", () => {
    fc.assert(
      fc.property(arbPolicy, arbSequence, (policy, anySequence) => {
        const sequence = fitting(policy, anySequence);
        const code = generateActivationCode(policy, sequence);
        expect(code).toHaveLength(policy.template.length);
        expect(conformsToPolicy(code, policy)).toBe(true);
        const alphabet = effectiveAlphabet(policy)!;
        const prefixLength = policy.template.indexOf("X");
        for (const [i, t] of [...policy.template].entries()) {
          if (t === "X" || t === "?") expect(alphabet).toContain(code[i]);
          else if (t === "#") expect(code[i]).toMatch(/[0-9]/);
          else expect(code[i]).toBe(t);
        }
        const body = code.slice(prefixLength);
        if (policy.caseStyle === "Upper") expect(body).toBe(body.toUpperCase());
        else expect(body).toBe(body.toLowerCase());
        const digits = [...policy.template].map((t, i) => (t === "#" ? code[i] : "")).join("");
        if (digits) expect(Number(digits)).toBe(sequence);
      }),
      { numRuns: 500 },
    );
  });

  it("normalized variants (separators removed, case changed, confusables) look up the same normalized form", () => {
    fc.assert(
      fc.property(
        arbPolicy,
        arbSequence,
        fc.boolean(),
        fc.boolean(),
        (policy, sequence, swapCase, confuse) => {
          const code = generateActivationCode(policy, fitting(policy, sequence));
          const stored = normalizeActivationCode(code, policy);
          const key = activationCodeLookupKey(code);
          let variant = code;
          if (policy.normalizeStripSeparators) variant = variant.replace(/[-_. /]/g, "");
          if (policy.normalizeCaseInsensitive && swapCase)
            variant = [...variant]
              .map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()))
              .join("");
          if (policy.normalizeMapConfusables && confuse)
            variant = variant.replace(/0/g, "o").replace(/1/g, policy.normalizeCaseInsensitive ? "l" : "I");
          variant = `  ${variant} `;
          expect(normalizeActivationCode(variant, policy)).toBe(stored);
          expect(activationCodeLookupKey(variant)).toBe(key);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("with every normalization on, Crockford confusables, case and separators all fold", () => {
    const policy = ZKeyIssuancePolicy.parse({ template: "XXXX-XXXX-XXXX" });
    const flags: FormatPolicy = policy;
    expect(normalizeActivationCode("ab10-o1il-zzzz", flags)).toBe(
      normalizeActivationCode("AB1O-0111-ZZZZ", flags),
    );
    expect(normalizeActivationCode("AB10 01IL ZZZZ", flags)).toBe("AB100111ZZZZ");
  });

  it("without normalization a variant is a different code", () => {
    const policy = ZKeyIssuancePolicy.parse({
      template: "XXXX-XXXX-XXXX",
      normalizeStripSeparators: false,
      normalizeCaseInsensitive: false,
      normalizeMapConfusables: false,
    });
    expect(normalizeActivationCode("ABCD-EFGH-JKMN", policy)).not.toBe(
      normalizeActivationCode("abcdefghjkmn", policy),
    );
  });

  it("no collision within 100,000 generated codes of one policy", () => {
    const policy = ZKeyIssuancePolicy.parse({ template: "XXXX-XXXX-XXXX-XXXX" });
    const seen = new Set<string>();
    for (let i = 0; i < 100_000; i++) seen.add(activationCodeLookupKey(generateActivationCode(policy, null)));
    expect(seen.size).toBe(100_000);
  });

  it("no collision within 100,000 codes of the smallest allowed space either (12 random digits + checksum)", () => {
    const policy = ZKeyIssuancePolicy.parse({
      template: "XXXX-XXXX-XXXX-?",
      alphabet: "Numeric",
      checksum: "LuhnModN",
    });
    const seen = new Set<string>();
    for (let i = 0; i < 100_000; i++) seen.add(generateActivationCode(policy, null));
    // Birthday bound for 10^5 draws from 10^12: p ≈ 0.5%. A failure here would mean a biased generator.
    expect(seen.size).toBeGreaterThanOrEqual(99_999);
  });
});

describe("collision retries (docs/architecture.md section 5)", () => {
  it("retries a taken code up to collisionRetryLimit times, then fails with activation_code.collision_retry_exhausted", async () => {
    const taken = new Set(["A", "B"]);
    const candidates = ["A", "B", "C"];
    let i = 0;
    await expect(
      claimWithRetries(
        () => candidates[i++],
        async (c) => !taken.has(c),
        2,
      ),
    ).resolves.toBe("C");
    i = 0;
    let tries = 0;
    await expect(
      claimWithRetries(
        () => candidates[i++],
        async (c) => (tries++, !taken.has(c)),
        1,
      ),
    ).rejects.toMatchObject({ codeName: "activation_code.collision_retry_exhausted" });
    expect(tries).toBe(2);
  });
});
