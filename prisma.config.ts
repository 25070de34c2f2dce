import { defineConfig } from "prisma/config";

// Only the schema location matters here: migrations are applied by server/db/migrate.ts because
// Prisma's native schema engine cannot be downloaded on our machines (docs/architecture.md section 2).
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/unused" },
});
