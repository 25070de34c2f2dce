// The keep-alive connections between a web process (server/web/next-proxy.ts) and its Next.js
// child (server/web/next-process.ts). The proxy drops an idle connection well before the child
// would close it: otherwise the proxy can send a request on a connection the child is closing at
// that instant and answer 502 (the cluster test saw one in ~6,000 requests, docs/operations.md
// "Cluster test").

/** The proxy closes a connection to Next.js that has been idle this long. */
export const NEXT_IDLE_SOCKET_MS = 30_000;
/** Next.js's server keeps an idle connection open this long (Node's default is 5 s). */
export const NEXT_KEEP_ALIVE_MS = 2 * NEXT_IDLE_SOCKET_MS;
