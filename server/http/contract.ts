import type { z } from "zod";
import type { AuthRequirement } from "./auth.ts";
import type { CodeName } from "../core/errors.ts";
import type { RouteRateLimit } from "./rate-limit.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * One REST endpoint: its path, who may call it, the zod schemas of its input and output and the
 * problems it can answer. The route wrapper enforces it and the OpenAPI document is built from it.
 */
export type Contract = {
  method: HttpMethod;
  /** Full path with `{param}` placeholders, e.g. `/api/v1/provision/admin/tags/{id}`. */
  path: string;
  summary: string;
  tag: string;
  auth: AuthRequirement;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
  /** 200 unless stated; 204 answers an empty body. */
  status?: 200 | 201 | 202 | 204;
  errors?: readonly CodeName[];
  /** Whether the route is answered in a non-JSON media type (e.g. form-encoded token endpoint). */
  requestMediaType?: string;
  /** Longer prose for the OpenAPI operation (options, how the body is read). */
  description?: string;
  /**
   * Largest request body accepted, in bytes (server/http/body.ts BODY_LIMITS): 64 KiB for
   * anonymous routes and 1 MiB for the rest unless a route documents a larger one here.
   */
  maxBodyBytes?: number;
  /**
   * Rate limits the request is counted against (server/http/rate-limit.ts), checked by the route
   * wrapper after parsing: 429 `request.rate_limited` past one, RateLimit headers on every answer.
   */
  rateLimits?: readonly RouteRateLimit[];
  /**
   * The handler counts `rateLimits` itself (HandlerInput `rateLimits`), folded into its own hot
   * statement so the count costs no round trip of its own; the wrapper then counts nothing.
   */
  rateLimitsCountedByHandler?: boolean;
  /** The success answer's media type when it is not JSON (a CSV download); `response` is then not used. */
  responseMediaType?: string;
};

export const defineContract = <C extends Contract>(contract: C): C => contract;
