// Imported first by main.ts: the harness seeds through the service's domain functions, which seal
// a tenant's signing key with APP_SECRET, so it must be the hosts' secret before any of them runs.
export const CLUSTER_APP_SECRET = "cluster-app-secret-0123456789abcdef0123456789";
process.env.APP_SECRET = CLUSTER_APP_SECRET;
process.env.LOG_LEVEL ??= "warn";
