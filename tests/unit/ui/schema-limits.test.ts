import { z } from "zod";
import { describe, expect, it } from "vitest";
import { limitsAt } from "@/components/ui/form/schema-limits";
import { ZProductCreateRequest } from "@/server/domain/catalog/products/product.schemas";

/** The limits a form shows before anyone types come from the API's own schema. */
describe("limitsAt", () => {
  it("reads a text field's length bounds (zod keeps them as minimum/maximum/length)", () => {
    const schema = z.object({
      name: z.string().min(1).max(200),
      code: z.string().length(5),
      note: z.string().max(4000).optional(),
    });
    expect(limitsAt(schema, "name")).toEqual({ required: true, minLength: 1, maxLength: 200 });
    expect(limitsAt(schema, "code")).toEqual({ required: true, minLength: 5, maxLength: 5 });
    expect(limitsAt(schema, "note")).toEqual({ required: false, maxLength: 4000 });
  });

  it("reads a number field's bounds and step", () => {
    const schema = z.object({
      seats: z.number().int().min(1).max(1_000_000),
      price: z.number().multipleOf(0.01),
    });
    expect(limitsAt(schema, "seats")).toMatchObject({
      required: true,
      min: 1,
      max: 1_000_000,
      integer: true,
    });
    expect(limitsAt(schema, "price")).toMatchObject({ step: 0.01 });
  });

  it("finds the product form's name limit: the counter shows 0 / 200 characters", () => {
    expect(limitsAt(ZProductCreateRequest, "name").maxLength).toBe(200);
  });
});
