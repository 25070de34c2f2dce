/**
 * Calls one batched tRPC request may carry (docs/security.md): the server refuses larger batches
 * with 400 and the browser client's httpBatchLink never sends one.
 */
export const MAX_TRPC_BATCH_SIZE = 20;
