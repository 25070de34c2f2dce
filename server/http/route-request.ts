/**
 * What the REST wrapper and the helpers it calls read of a request: the part of the WHATWG
 * `Request` that Next.js hands route handlers and that the runtime lane (server/web/runtime-lane.ts)
 * builds straight from the socket's request, without a `Request`, `Headers` or abort signal.
 */
export type RouteRequest = {
  readonly method: string;
  /** Absolute: origin, path and query. */
  readonly url: string;
  readonly headers: Pick<Headers, "get" | "has">;
  readonly body: ReadableStream<Uint8Array> | null;
};

/**
 * A route's answer before it is a `Response`: Next.js gets it as one, the runtime lane writes it to
 * the socket as is. A body is JSON text (or problem+json), sent with its Content-Length.
 */
export type Answer = { status: number; headers: Record<string, string>; body: string | null };

export function answerResponse(answer: Answer): Response {
  return new Response(answer.status === 204 || answer.status === 304 ? null : answer.body, {
    status: answer.status,
    headers: answer.headers,
  });
}
