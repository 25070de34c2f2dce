// The runtime lane's route table (docs/architecture.md section 11): the paths every shipped copy of a vendor's
// product calls, mapped to their route modules in server/http/runtime-api, which the App Router's
// route files at those paths re-export: one handler per path, served by Next.js and by the lane
// alike, and nothing below app/ imports from app/. The production web process (server/web/main.ts)
// calls these handlers directly and leaves every other path to Next.js.
import type { Answer, RouteRequest } from "../http/route-request.ts";
import * as activationJwt from "../http/runtime-api/activate-jwt.ts";
import * as activationLicense from "../http/runtime-api/activate-license.ts";
import * as anonymousTry from "../http/runtime-api/anonymous-try.ts";
import * as renew from "../http/runtime-api/renew.ts";
import * as checkIn from "../http/runtime-api/check-in.ts";
import * as release from "../http/runtime-api/release.ts";
import * as consume from "../http/runtime-api/consume.ts";
import * as previewConsume from "../http/runtime-api/preview-consume.ts";
import * as consumption from "../http/runtime-api/meter-consumption.ts";
import * as meterUsage from "../http/runtime-api/meter-usage.ts";
import * as sessionTransactions from "../http/runtime-api/upload-session-usage.ts";
import * as entitlementTransactions from "../http/runtime-api/upload-entitlement-usage.ts";
import * as ratingPrompt from "../http/runtime-api/rating-prompt.ts";
import * as ratingPromptAnswers from "../http/runtime-api/rating-prompt-answers.ts";
import * as metrics from "../http/runtime-api/metrics.ts";

type RouteContext = { params: Promise<Record<string, string>> };

/**
 * A route module's handler, as Next.js calls it; the REST wrapper's (server/http/route.ts) also
 * has `answer`, which the runtime lane calls with the socket's request.
 */
export type RouteHandler = ((req: Request, context: RouteContext) => Promise<Response> | Response) & {
  answer?: (req: RouteRequest, context: RouteContext) => Promise<Answer | Response>;
};

type RouteModule = Partial<Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE", RouteHandler>>;

/** Paths in the App Router's folder notation, relative to app/ (so a test can check each file exists). */
const table: [path: string, module: RouteModule][] = [
  ["/api/v1/provision/activations/jwt", activationJwt],
  ["/api/v1/provision/activations/license", activationLicense],
  ["/api/v1/provision/activations/anonymous-try", anonymousTry],
  ["/api/v1/provision/activations/[sessionId]/renew", renew],
  ["/api/v1/provision/activations/[sessionId]/check-in", checkIn],
  ["/api/v1/provision/activations/[sessionId]/release", release],
  ["/api/v1/provision/usage/consume/[sessionId]/[metric]", consume],
  ["/api/v1/provision/usage/preview-consume/[sessionId]/[metric]", previewConsume],
  ["/api/v1/provision/usage/[sessionId]/[metric]/consumption", consumption],
  ["/api/v1/provision/usage/[sessionId]/[metric]/usage", meterUsage],
  ["/api/v1/provision/usage/sessions/[sessionId]/transactions", sessionTransactions],
  ["/api/v1/provision/usage/entitlements/[entitlementId]/transactions", entitlementTransactions],
  ["/api/v1/provision/usage/sessions/[sessionId]/rating-prompt", ratingPrompt],
  ["/api/v1/provision/usage/sessions/[sessionId]/rating-prompt/answers", ratingPromptAnswers],
  // Not a runtime call, but this process keeps the counters it reports (server/web/web-link.ts).
  ["/api/metrics", metrics],
];

type Segment = { literal: string } | { param: string };
type CompiledRoute = { path: string; segments: Segment[]; module: RouteModule };

function compile(path: string, module: RouteModule): CompiledRoute {
  const segments = path
    .split("/")
    .slice(1)
    .map((s): Segment => (s.startsWith("[") ? { param: s.slice(1, -1) } : { literal: s }));
  return { path, segments, module };
}

/**
 * Next.js's order among routes that match one path: at the first segment where two differ, the
 * static one wins (`usage/consume/…` before `usage/[sessionId]/…`). Sorting by that order once lets
 * the first match be the right one.
 */
function byPrecedence(a: CompiledRoute, b: CompiledRoute): number {
  const n = Math.min(a.segments.length, b.segments.length);
  for (let i = 0; i < n; i++) {
    const aStatic = "literal" in a.segments[i];
    const bStatic = "literal" in b.segments[i];
    if (aStatic !== bStatic) return aStatic ? -1 : 1;
  }
  return 0;
}

const routes = table.map(([path, module]) => compile(path, module)).sort(byPrecedence);
/** Index by segment count: a path is compared only with routes of its own depth. */
const byDepth = new Map<number, CompiledRoute[]>();
for (const r of routes) byDepth.set(r.segments.length, [...(byDepth.get(r.segments.length) ?? []), r]);

export type RuntimeMatch = { path: string; handler: RouteHandler; params: Record<string, string> };

/**
 * The runtime handler for a method and path, or null when Next.js serves it (any other path, a
 * method the route does not export, a trailing slash, a segment that is not valid percent-encoding:
 * Next.js answers those as it always has).
 */
export function matchRuntimeRoute(method: string, pathname: string): RuntimeMatch | null {
  if (!pathname.startsWith("/api/") || pathname.endsWith("/")) return null;
  const parts = pathname.split("/").slice(1);
  const candidates = byDepth.get(parts.length);
  if (!candidates) return null;
  for (const route of candidates) {
    const params: Record<string, string> = {};
    let matched = true;
    for (let i = 0; i < parts.length; i++) {
      const segment = route.segments[i];
      if ("literal" in segment) {
        if (segment.literal !== parts[i]) {
          matched = false;
          break;
        }
      } else {
        try {
          params[segment.param] = decodeURIComponent(parts[i]);
        } catch {
          return null;
        }
        if (!params[segment.param]) {
          matched = false;
          break;
        }
      }
    }
    if (!matched) continue;
    const handler = route.module[method as keyof RouteModule];
    return handler ? { path: route.path, handler, params } : null;
  }
  return null;
}

/** The table's paths (for the test that keeps it in step with app/api). */
export const runtimeRoutePaths = (): string[] => table.map(([path]) => path);
