import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "../../../server/db/migrate.ts";
import { actualShape, diffShapes, expectedShape } from "../../../server/db/schema-drift.ts";
import { createTestDatabase, testPostgres } from "../../helpers/test-server.ts";

describe("schema drift: SQL migrations against prisma/schema.prisma", () => {
  let url: string;
  let cleanup: () => Promise<void>;
  let schema: string;

  beforeAll(async () => {
    const server = await testPostgres();
    const database = await createTestDatabase(server.adminUrl, "lic_drift");
    url = database.url;
    cleanup = async () => {
      await database.drop();
      await server.stop();
    };
    await migrate(url);
    schema = await readFile(new URL("../../../prisma/schema.prisma", import.meta.url), "utf8");
  });

  afterAll(async () => cleanup?.());

  it("every model, column, type, nullability, unique, index and foreign key of schema.prisma exists exactly in the migrated database", async () => {
    const actual = await actualShape(url);
    expect(diffShapes(expectedShape(schema), actual)).toEqual([]);
  });

  it("applying migrations twice changes nothing and records each once in _prisma_migrations", async () => {
    expect(await migrate(url)).toEqual([]);
    const pg = await import("pg");
    const client = new pg.default.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query(
      `SELECT migration_name, finished_at, applied_steps_count, checksum FROM "_prisma_migrations"`,
    );
    await client.end();
    expect(rows.length).toBeGreaterThan(0);
    expect(new Set(rows.map((r) => r.migration_name)).size).toBe(rows.length);
    for (const row of rows) {
      expect(row.finished_at).not.toBeNull();
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
    }
  });

  it("detects a column added to the schema without a migration", async () => {
    const drifted = schema.replace(/model Tag \{\n/, "model Tag {\n  description String\n");
    expect(drifted).not.toBe(schema);
    const diff = diffShapes(expectedShape(drifted), await actualShape(url));
    expect(diff).toContain("column Tag.description is missing from the database");
  });

  it("detects an index, a nullability change and a new model without a migration", async () => {
    const drifted = schema
      .replace(
        "  @@index([tenantId, scope, isDeleted])\n",
        "  @@index([tenantId, scope, isDeleted])\n  @@index([tenantId, color])\n",
      )
      .replace("  color          String?", "  color          String")
      .concat("\nmodel Extra {\n  id String @id\n}\n");
    const diff = diffShapes(expectedShape(drifted), await actualShape(url));
    expect(diff).toEqual(
      expect.arrayContaining([
        "index Tag:Tag_tenantId_color_idx (index (tenantId,color)) is missing from the database",
        "column Tag.color: nullable in the database, required in the schema",
        "table Extra is missing from the database",
      ]),
    );
  });
});
