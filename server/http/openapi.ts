import { z } from "zod";
import type { Contract } from "./contract.ts";
import { allContracts } from "./contracts/index.ts";
import { errorCatalog, type CodeName } from "../core/errors.ts";
import { requiredScope } from "./auth.ts";
import { problemType } from "./problem.ts";
import { BODY_LIMITS, bodyLimitOf } from "./body.ts";

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    target: "draft-2020-12",
  }) as JsonSchema;
  return rest;
}

function parameters(schema: z.ZodType | undefined, location: "path" | "query") {
  if (!schema) return [];
  const js = jsonSchema(schema, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, s]) => ({
    name,
    in: location,
    required: location === "path" || (js.required ?? []).includes(name),
    schema: s,
    ...(typeof s.description === "string" ? { description: s.description } : {}),
  }));
}

const problemSchema: JsonSchema = {
  type: "object",
  required: ["type", "title", "status", "detail", "instance", "code", "codeName"],
  properties: {
    type: { type: "string" },
    title: { type: "string" },
    status: { type: "integer" },
    detail: { type: "string" },
    instance: { type: "string" },
    code: { type: "integer" },
    codeName: { type: "string", enum: Object.keys(errorCatalog) },
    correlationId: { type: "string" },
    errors: {
      type: "array",
      items: { type: "object", properties: { path: { type: "string" }, message: { type: "string" } } },
    },
  },
};

const securityScheme = {
  client: "oauth2",
  integrator: "oauth2",
  consumer: "userToken",
  license: "licenseToken",
  anonymous: "none",
} as const;

function operation(contract: Contract) {
  const scope = requiredScope(contract.auth, contract.method);
  const status = String(contract.status ?? 200);
  const readsBody = contract.method !== "GET";
  const codes: CodeName[] = [
    ...new Set([
      ...(contract.errors ?? []),
      ...(readsBody ? ["request.payload_too_large" as const] : []),
      ...(contract.rateLimits?.length ? ["request.rate_limited" as const] : []),
      "internal.error" as const,
    ]),
  ];
  const responses: Record<string, unknown> = {
    [status]: contract.responseMediaType
      ? {
          description: "Success",
          content: { [contract.responseMediaType]: { schema: { type: "string" } } },
        }
      : status === "204" || !contract.response
        ? { description: status === "202" ? "Accepted" : "No content" }
        : {
            description: "Success",
            content: { "application/json": { schema: jsonSchema(contract.response, "output") } },
          },
  };
  for (const codeName of codes) {
    const entry = errorCatalog[codeName];
    const key = String(entry.status);
    const existing = responses[key] as { description: string; "x-problem-codes": unknown[] } | undefined;
    const code = { codeName, code: entry.code, type: problemType(codeName), title: entry.title };
    if (existing) existing["x-problem-codes"].push(code);
    else
      responses[key] = {
        description: entry.title,
        content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
        "x-problem-codes": [code],
      };
  }
  return {
    summary: contract.summary,
    ...(contract.description ? { description: contract.description } : {}),
    tags: [contract.tag],
    operationId: `${contract.method.toLowerCase()} ${contract.path}`,
    security:
      contract.auth.kind === "anonymous"
        ? []
        : [{ [securityScheme[contract.auth.kind]]: scope ? [scope] : [] }],
    ...(scope ? { "x-required-scope": scope } : {}),
    ...(contract.rateLimits?.length ? { "x-rate-limits": contract.rateLimits } : {}),
    parameters: [
      ...parameters(contract.params, "path"),
      ...parameters(contract.query, "query"),
      ...(contract.method !== "GET"
        ? [
            {
              name: "Idempotency-Key",
              in: "header",
              required: false,
              schema: { type: "string", maxLength: 200 },
            },
          ]
        : []),
      { name: "X-Correlation-Id", in: "header", required: false, schema: { type: "string", maxLength: 200 } },
    ],
    ...(contract.body
      ? {
          requestBody: {
            required: true,
            "x-max-body-bytes": bodyLimitOf(contract),
            content: {
              [contract.requestMediaType ?? "application/json"]: {
                schema: jsonSchema(contract.body, "input"),
              },
            },
          },
        }
      : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document, built from the same contracts and zod schemas the routes enforce. */
export function buildOpenApi(contracts: Contract[] = allContracts) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const contract of contracts) {
    paths[contract.path] ??= {};
    paths[contract.path][contract.method.toLowerCase()] = operation(contract);
  }
  paths["/auth/connect/token"] = {
    post: {
      summary: "Exchange client credentials for an access token (RFC 6749)",
      tags: ["Authentication"],
      security: [],
      requestBody: {
        required: true,
        "x-max-body-bytes": BODY_LIMITS.anonymous,
        content: {
          "application/x-www-form-urlencoded": {
            schema: {
              type: "object",
              required: ["grant_type"],
              properties: {
                grant_type: { type: "string", enum: ["client_credentials", "password"] },
                client_id: { type: "string" },
                client_secret: { type: "string" },
                scope: { type: "string", description: "Space-separated scopes; wildcards allowed" },
                username: { type: "string" },
                password: { type: "string" },
                tenant: {
                  type: "string",
                  description: "Vendor slug, for the password grant when an email has several accounts",
                },
              },
            },
          },
        },
      },
      responses: {
        "200": {
          description: "Bearer token",
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: {
                  access_token: { type: "string" },
                  token_type: { type: "string" },
                  expires_in: { type: "integer" },
                  scope: { type: "string" },
                },
              },
            },
          },
        },
        "400": { description: "invalid_request, invalid_scope, unsupported_grant_type or invalid_grant" },
        "401": { description: "invalid_client" },
        "413": { description: "invalid_request: the form is larger than x-max-body-bytes" },
      },
    },
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "Licensing and Metering Service",
      version: "1.0.0",
      description: "REST API: admin, operational, runtime, consumer and webhook surfaces.",
    },
    servers: [{ url: "/" }],
    paths,
    components: {
      schemas: { Problem: problemSchema },
      securitySchemes: {
        oauth2: {
          type: "oauth2",
          flows: { clientCredentials: { tokenUrl: "/auth/connect/token", scopes: {} } },
        },
        userToken: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "End-user token (audience consumer)",
        },
        licenseToken: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "License (session) token from an activation (audience license, RS256, tenant JWKS)",
        },
      },
    },
    "x-problem-catalog": Object.entries(errorCatalog).map(([codeName, e]) => ({ codeName, ...e })),
  };
}
