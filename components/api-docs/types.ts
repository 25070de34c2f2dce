/** The parts of an OpenAPI 3.1 document the API docs page reads (server/http/openapi.ts builds it). */
export type JsonSchema = Record<string, unknown>;

export type ProblemCode = { codeName: string; code: number; type?: string; title: string; status?: number };

export type Parameter = {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
};

export type MediaContent = Record<string, { schema?: JsonSchema }>;

export type ResponseObject = {
  description?: string;
  content?: MediaContent;
  "x-problem-codes"?: ProblemCode[];
};

export type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  operationId?: string;
  security?: Record<string, string[]>[];
  "x-required-scope"?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: MediaContent };
  responses?: Record<string, ResponseObject>;
};

export type OpenApiDocument = {
  openapi?: string;
  info?: { title?: string; version?: string; description?: string };
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
  "x-problem-catalog"?: ProblemCode[];
};

export const HTTP_METHODS = ["get", "post", "put", "patch", "delete"] as const;

export type OperationEntry = { method: string; path: string; op: Operation; group: string; id: string };

/** Operations grouped by their first tag, groups in order of first appearance. */
export function groupOperations(doc: OpenApiDocument): { group: string; operations: OperationEntry[] }[] {
  const groups = new Map<string, OperationEntry[]>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      const group = op.tags?.[0] ?? "Other";
      const id = `op-${method}-${path}`.replace(/[^A-Za-z0-9_-]+/g, "-");
      const list = groups.get(group) ?? [];
      list.push({ method, path, op, group, id });
      groups.set(group, list);
    }
  }
  return [...groups].map(([group, operations]) => ({ group, operations }));
}

/** Who may call an operation, in words. */
export function authOf(op: Operation): string {
  if (op["x-required-scope"]) return op["x-required-scope"];
  const schemes = (op.security ?? []).flatMap((s) => Object.entries(s));
  if (!schemes.length) return "none (anonymous)";
  return schemes
    .map(([name, scopes]) =>
      scopes.length ? scopes.join(" ") : name === "userToken" ? "end-user token" : name,
    )
    .join(" or ");
}

/** A one-line type for a parameter's schema: `string (uuid)`, `"a" | "b"`, `integer ≥ 1`. */
export function typeOf(schema: JsonSchema | undefined): string {
  if (!schema) return "";
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  const anyOf = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(anyOf)) return anyOf.map(typeOf).join(" | ");
  const parts = [String(schema.type ?? "any")];
  if (typeof schema.format === "string") parts.push(`(${schema.format})`);
  if (typeof schema.minimum === "number") parts.push(`≥ ${schema.minimum}`);
  if (typeof schema.maximum === "number") parts.push(`≤ ${schema.maximum}`);
  if (typeof schema.maxLength === "number") parts.push(`max ${schema.maxLength} chars`);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join(" ");
}
