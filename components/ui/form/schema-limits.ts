import type { z } from "zod";

/** What a field's schema allows, shown next to the field before anyone hits it. */
export type Limits = {
  minLength?: number;
  maxLength?: number;
  /** Smallest number; `minExclusive` when the schema says "greater than". */
  min?: number;
  minExclusive?: boolean;
  max?: number;
  maxExclusive?: boolean;
  integer?: boolean;
  /** Smallest step the number takes (multipleOf), e.g. 0.01 for cents. */
  step?: number;
  required?: boolean;
};

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  checks?: { _zod: { def: CheckDef } }[];
};
type CheckDef = {
  check: string;
  value?: unknown;
  /** Length checks keep their bound here (zod 4), not in `value`. */
  minimum?: unknown;
  maximum?: unknown;
  length?: unknown;
  inclusive?: boolean;
  format?: string;
};
const numberOr = (v: unknown) => (typeof v === "number" ? v : undefined);

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;
const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "catch", "readonly", "nonoptional"]);

/** The schema of the value at `path` ("plans.0.monthlyPrice"), looking through optional, default and pipes. */
export function schemaAt(schema: z.ZodType, path: string): z.ZodType | undefined {
  let current: z.ZodType | undefined = schema;
  for (const key of path.split(".").filter(Boolean)) {
    current = current && unwrap(current);
    if (!current) return undefined;
    const def = defOf(current);
    if (def.type === "object") current = def.shape?.[key];
    else if (def.type === "array" || def.type === "set") current = def.element;
    else return undefined;
  }
  return current;
}

/** The schema with optional/nullable/default wrappers and pipes removed (a pipe's output side: the API's rule). */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let depth = 0; depth < 10; depth++) {
    const def = defOf(current);
    if (WRAPPERS.has(def.type) && def.innerType) current = def.innerType;
    else if (def.type === "pipe" && def.out && defOf(def.out).type !== "transform") current = def.out;
    else if (def.type === "pipe" && def.in) current = def.in;
    else break;
  }
  return current;
}

function isOptional(schema: z.ZodType): boolean {
  let current = schema;
  for (let depth = 0; depth < 10; depth++) {
    const def = defOf(current);
    if (def.type === "optional" || def.type === "nullable" || def.type === "default") return true;
    if (WRAPPERS.has(def.type) && def.innerType) current = def.innerType;
    else if (def.type === "pipe" && def.in) current = def.in;
    else return false;
  }
  return false;
}

/** The limits the schema puts on the value at `path`. */
export function limitsAt(schema: z.ZodType | undefined, path: string): Limits {
  const at = schema && schemaAt(schema, path);
  if (!at) return {};
  const limits: Limits = { required: !isOptional(at) };
  for (const check of defOf(unwrap(at)).checks ?? []) {
    const def = check._zod.def;
    const value = numberOr(def.value);
    if (def.check === "max_length") limits.maxLength = numberOr(def.maximum);
    else if (def.check === "min_length") limits.minLength = numberOr(def.minimum);
    else if (def.check === "length_equals") limits.minLength = limits.maxLength = numberOr(def.length);
    else if (
      def.check === "greater_than" &&
      value !== undefined &&
      (limits.min === undefined || value > limits.min)
    ) {
      limits.min = value;
      limits.minExclusive = def.inclusive === false;
    } else if (
      def.check === "less_than" &&
      value !== undefined &&
      (limits.max === undefined || value < limits.max)
    ) {
      limits.max = value;
      limits.maxExclusive = def.inclusive === false;
    } else if (def.check === "multiple_of") limits.step = value;
    else if (def.check === "number_format" && /int/.test(def.format ?? "")) limits.integer = true;
  }
  // z.int() bounds itself by the safe-integer range: not a limit worth showing.
  if (limits.integer && limits.min === Number.MIN_SAFE_INTEGER) delete limits.min;
  if (limits.integer && limits.max === Number.MAX_SAFE_INTEGER) delete limits.max;
  return limits;
}
