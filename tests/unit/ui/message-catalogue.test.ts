import { describe, expect, it } from "vitest";
import { z } from "zod";
import { errorCatalog } from "@/server/core/errors";
import {
  fieldIssueSentence,
  issueSentence,
  issueTemplate,
  problemSentence,
  zodIssueCodes,
  type IssueFacts,
} from "@/components/ui/form/messages";
import { problemSentences } from "@/components/ui/form/problem-sentences";
import { limitsAt } from "@/components/ui/form/schema-limits";

/** Text a person should never read: codeNames, camelCase or snake_case identifiers, zod's English, raw tokens. */
function assertPlain(sentence: string) {
  for (const codeName of Object.keys(errorCatalog)) expect(sentence).not.toContain(codeName);
  expect(sentence).not.toMatch(/\b[a-z]+\.\d+\.|\b(body|query|input)\./); // zod or request paths
  expect(sentence).not.toMatch(/\b[a-z]+[A-Z][A-Za-z]*\b/); // camelCase
  expect(sentence).not.toMatch(/\b\w+_\w+\b/); // snake_case
  expect(sentence).not.toMatch(/\{label\}|Too big|Too small|expected|received|<=|>=|Invalid input/);
  expect(sentence).toMatch(/^[A-Z0-9]/);
  expect(sentence).toMatch(/[.]$/);
}

describe("problem codeNames", () => {
  const codeNames = Object.keys(errorCatalog) as (keyof typeof errorCatalog)[];

  it("every codeName of the error catalog has a sentence, and no sentence is left over", () => {
    const missing = codeNames.filter((c) => !(c in problemSentences));
    expect(missing).toEqual([]);
    expect(Object.keys(problemSentences).sort()).toEqual([...codeNames].sort());
  });

  it.each(codeNames)("%s reads as a plain sentence", (codeName) => {
    const sentence = problemSentence({ codeName, status: errorCatalog[codeName].status });
    assertPlain(sentence);
    expect(sentence).not.toContain(codeName);
    expect(sentence).not.toBe(errorCatalog[codeName].title);
  });

  it("an unknown codeName or a network failure still reads plainly", () => {
    expect(problemSentence({ codeName: "brand.new_code", status: 400 })).toBe(
      "The request was refused. Check the values and try again.",
    );
    expect(problemSentence({ status: 0 })).toBe(
      "We could not reach the service. Check your connection and try again.",
    );
    expect(problemSentence({ status: 502 })).toBe(problemSentences["internal.error"]);
  });
});

describe("zod issue codes", () => {
  /** One representative issue per code, as zod 4 raises them. */
  const samples: Record<(typeof zodIssueCodes)[number], IssueFacts> = {
    invalid_type: { code: "invalid_type", expected: "number", input: "abc" },
    too_big: { code: "too_big", origin: "number", maximum: 1_000_000, inclusive: true },
    too_small: { code: "too_small", origin: "number", minimum: 1, inclusive: true },
    invalid_format: { code: "invalid_format", format: "email" },
    not_multiple_of: { code: "not_multiple_of", divisor: 0.01 },
    unrecognized_keys: { code: "unrecognized_keys" },
    invalid_union: { code: "invalid_union" },
    invalid_key: { code: "invalid_key" },
    invalid_element: { code: "invalid_element" },
    invalid_value: { code: "invalid_value", values: ["Draft", "Active"] },
    custom: { code: "custom" },
  };

  it.each(zodIssueCodes)("%s names the field by its label in a plain sentence", (code) => {
    const sentence = issueSentence(samples[code], "Seats");
    assertPlain(sentence);
    expect(sentence.toLowerCase()).toContain("seats");
  });

  it("says both ends of a number range with thousands separators", () => {
    const schema = z.object({ seats: z.number().int().min(1).max(1_000_000) });
    const issue = schema.safeParse({ seats: 5_000_000 }).error!.issues[0];
    const limits = limitsAt(schema, "seats");
    expect(limits).toEqual({
      required: true,
      min: 1,
      minExclusive: false,
      max: 1_000_000,
      maxExclusive: false,
      integer: true,
    });
    expect(issueSentence(issue as IssueFacts, "Seats", limits)).toBe(
      "Seats must be between 1 and 1,000,000.",
    );
  });

  it("turns zod's real issues into the expected sentences", () => {
    const schema = z.object({
      name: z.string().min(1).max(200),
      validityDays: z.number().int().gt(0),
      email: z.email(),
      status: z.enum(["Draft", "Active"]),
      price: z.number().multipleOf(0.01),
    });
    const result = schema.safeParse({
      name: "x".repeat(201),
      validityDays: -5,
      email: "nope",
      status: "Gone",
      price: 1.234,
    });
    const sentences = result.error!.issues.map((i) =>
      issueSentence(
        i as IssueFacts,
        { name: "Name", validityDays: "Validity", email: "Email", status: "Status", price: "Price" }[
          String(i.path[0])
        ]!,
      ),
    );
    expect(sentences).toEqual([
      "Name must be 200 characters or fewer.",
      "Validity must be more than 0.",
      "Enter email as an email address, like name@example.com.",
      "Choose status from: Draft, Active.",
      "Price can have at most 2 decimal places.",
    ]);
    expect(issueSentence(schema.safeParse({ name: "" }).error!.issues[0] as IssueFacts, "Name")).toBe(
      "Enter name.",
    );
  });

  it("a template keeps the label slot until the label is known", () => {
    expect(issueTemplate({ code: "too_big", origin: "string", maximum: 50 })).toBe(
      "{label} must be 50 characters or fewer.",
    );
  });
});

describe("field errors from the server", () => {
  it("never shows zod's English or a path; keeps a plain server sentence", () => {
    expect(
      fieldIssueSentence(
        { path: "body.plans.0.monthlyPrice", message: "Too big: expected number to be <=1000000" },
        "license.validation_error",
      ),
    ).toBe("Monthly price is not accepted. Check it against the hint below the field and try again.");
    expect(
      fieldIssueSentence(
        { path: "name", message: "A tag name cannot be empty." },
        "license.validation_error",
      ),
    ).toBe("A tag name cannot be empty.");
    expect(fieldIssueSentence({ path: "code", message: "x" }, "product.code_taken", "Product code")).toBe(
      "Product code: Another product already uses this code and version. Change the code or the version.",
    );
  });
});
