// Catalog export and import benchmark (npm run bench -- portability): a synthetic catalog of N
// products with F features each (each feature its own catalog entry) is imported into an empty
// tenant, exported, then imported into a second tenant as a dry run and for real; and a file of
// about 5,000 items is imported on its own against the import's time limit. Runs the domain
// functions in this process on a fresh database; reports seconds and peak memory per step, with the
// load average (the CPU is shared, so figures are indicative).
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { createDb } from "../../server/db/client.ts";
import { tenantDb } from "../../server/db/tenant-db.ts";
import { migrate } from "../../server/db/migrate.ts";
import { createTenant } from "../../server/domain/identity/create-tenant.ts";
import type { DomainContext } from "../../server/domain/context.ts";
import { exportCatalog } from "../../server/domain/portability/export/export-catalog.ts";
import {
  importCatalog,
  IMPORT_TIME_LIMIT_MS,
  STREAMED_IMPORT_TIME_LIMIT_MS,
} from "../../server/domain/portability/import/import-catalog.ts";
import { CATALOG_FORMAT_VERSION } from "../../server/domain/portability/snapshot/format-version.ts";
import { ZCatalogExportRequest, ZCatalogImportBody } from "../../server/domain/portability/snapshot/snapshot.schemas.ts";
import { sectionNames } from "../../server/domain/portability/snapshot/sections.ts";
import { AppError } from "../../server/core/errors.ts";
import { createTestDatabase, testPostgres, TEST_APP_SECRET } from "../../tests/helpers/test-server.ts";

type Step = { seconds: number; peakRssMiB: number; peakHeapMiB: number; items: number };

export type PortabilityBenchResult = {
  scenario: "catalog-portability";
  products: number;
  featuresPerProduct: number;
  fileItems: number;
  fileMiB: number;
  steps: Record<string, Step>;
  /** About 5,000 items through the REST import's time limit. */
  fiveThousandItems: Step & { limitSeconds: number; completed: boolean };
  streamedLimitSeconds: number;
  loadAverage: number[];
  cpus: string;
};

/** A catalog file as the export writes it: products, their features, each feature its own entry. */
function syntheticSnapshot(products: number, features: number, prefix: string) {
  const entries = [];
  const items = [];
  for (let p = 0; p < products; p++) {
    const productFeatures = [];
    for (let f = 0; f < features; f++) {
      const id = randomUUID();
      const numeric = f % 2 === 0;
      entries.push({
        id,
        featureCode: `${prefix}_F${p}_${f}`,
        name: `Feature ${f} of product ${p}`,
        units: numeric ? "units" : null,
        featureType: numeric ? "Numeric" : "Boolean",
        lifecycleStatus: "Published",
        tags: f === 0 ? ["Bench"] : [],
      });
      productFeatures.push({
        featureCatalogId: id,
        featureCode: `${prefix}_F${p}_${f}`,
        name: `Feature ${f}`,
        value: numeric ? String(10 * (f + 1)) : "true",
        sortOrder: f + 1,
      });
    }
    items.push({
      id: randomUUID(),
      productCode: `${prefix}-P${p}`,
      productVersion: "1.0",
      name: `Bench product ${p}`,
      description: `Synthetic product ${p} with ${features} features.`,
      status: "Active",
      tags: ["Bench"],
      propertyValues: { edition: { value: "standard", visibility: "Public" } },
      features: productFeatures,
    });
  }
  return {
    formatVersion: CATALOG_FORMAT_VERSION,
    exportedAt: new Date().toISOString(),
    sourceTenantId: randomUUID(),
    scope: ["products", "featureCatalog"],
    counts: { products: items.length, featureCatalog: entries.length },
    references: {},
    warnings: [],
    sections: { products: items, featureCatalog: entries },
  };
}

/** Runs a step, sampling this process's memory, and reports its duration and peaks. */
async function measure<T>(items: number, fn: () => Promise<T>): Promise<{ step: Step; value: T }> {
  global.gc?.();
  let peakRss = process.memoryUsage().rss;
  let peakHeap = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  }, 50);
  const started = performance.now();
  try {
    const value = await fn();
    const seconds = Math.round((performance.now() - started) / 10) / 100;
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
    const mib = (n: number) => Math.round(n / 1024 / 1024);
    return { step: { seconds, peakRssMiB: mib(peakRss), peakHeapMiB: mib(peakHeap), items }, value };
  } finally {
    clearInterval(sampler);
  }
}

const itemsOf = (snapshot: { sections: Record<string, unknown[]> }) =>
  Object.values(snapshot.sections).reduce((n, s) => n + s.length, 0);

export async function runPortabilityBench(
  options: { products?: number; features?: number; log?: (line: string) => void } = {},
): Promise<PortabilityBenchResult> {
  const products = options.products ?? Number(process.env.BENCH_PORTABILITY_PRODUCTS ?? 400);
  const features = options.features ?? Number(process.env.BENCH_PORTABILITY_FEATURES ?? 10);
  const log = options.log ?? ((line: string) => process.stderr.write(`[bench:portability] ${line}\n`));
  process.env.APP_SECRET ??= TEST_APP_SECRET;
  const server = await testPostgres();
  const database = await createTestDatabase(server.adminUrl, "bench_portability");
  const db = createDb(database.url, { max: 4 });
  try {
    await migrate(database.url);
    const ctxOf = async (name: string): Promise<DomainContext> => {
      const tenant = await createTenant(db, { name });
      return { tenantId: tenant.tenantId, db: tenantDb(db, tenant.tenantId), actor: { kind: "system", id: "bench" } };
    };
    const [a, b, c] = [await ctxOf("Bench A"), await ctxOf("Bench B"), await ctxOf("Bench C")];
    const options = (dryRun: boolean) => ({ dryRun, conflictMode: "CreateOrUpdate" as const, compare: false });
    // The whole catalog goes the back office's way (streamed progress, its longer limit).
    const streamed = { timeLimitMs: STREAMED_IMPORT_TIME_LIMIT_MS };
    const steps: Record<string, Step> = {};

    const synthetic = syntheticSnapshot(products, features, "BENCH");
    const fileItems = itemsOf(synthetic);
    log(`importing ${products} products × ${features} features (${fileItems} items) into an empty tenant`);
    steps.importIntoEmpty = (await measure(fileItems, () => importCatalog(a, ZCatalogImportBody.parse(synthetic), options(false), streamed))).step;
    log(`  ${steps.importIntoEmpty.seconds} s`);

    const all = Object.fromEntries(sectionNames.map((s) => [s, { mode: "All" }]));
    const exported = await measure(fileItems, () => exportCatalog(a, ZCatalogExportRequest.parse(all)));
    steps.export = exported.step;
    const file = JSON.stringify(exported.value);
    log(`exported ${itemsOf(exported.value)} items (${(file.length / 1024 / 1024).toFixed(1)} MiB) in ${steps.export.seconds} s`);

    const parsed = () => ZCatalogImportBody.parse(JSON.parse(file));
    steps.dryRunIntoEmpty = (await measure(fileItems, () => importCatalog(b, parsed(), options(true), streamed))).step;
    log(`dry run into a second tenant: ${steps.dryRunIntoEmpty.seconds} s`);
    steps.importExport = (await measure(fileItems, () => importCatalog(b, parsed(), options(false), streamed))).step;
    log(`import of the export into the second tenant: ${steps.importExport.seconds} s`);
    steps.reimportUnchanged = (await measure(fileItems, () => importCatalog(b, parsed(), options(true), streamed))).step;
    log(`dry run of the same file again (all unchanged): ${steps.reimportUnchanged.seconds} s`);

    // At most 5,000 items to apply per import (import-limits.ts).
    const fiveThousandProducts = Math.floor(5000 / (features + 1));
    const five = syntheticSnapshot(fiveThousandProducts, features, "FIVE");
    // Under the REST import's own limit: whether it completes is part of the figure.
    const fiveRun = await measure(itemsOf(five), async () => {
      try {
        await importCatalog(c, ZCatalogImportBody.parse(five), options(false));
        return true;
      } catch (error) {
        if (error instanceof AppError && error.codeName === "catalog.import_too_large") return false;
        throw error;
      }
    });
    const fiveStep = { ...fiveRun.step, completed: fiveRun.value };
    log(
      `import of ${itemsOf(five)} items: ${fiveStep.seconds} s (limit ${IMPORT_TIME_LIMIT_MS / 1000} s${fiveStep.completed ? "" : ", not completed"})`,
    );

    const cpuModel = readFileSync("/proc/cpuinfo", "utf8").match(/model name\s*:\s*(.*)/)?.[1] ?? "unknown";
    return {
      scenario: "catalog-portability",
      products,
      featuresPerProduct: features,
      fileItems,
      fileMiB: Math.round((file.length / 1024 / 1024) * 10) / 10,
      steps,
      fiveThousandItems: { ...fiveStep, limitSeconds: IMPORT_TIME_LIMIT_MS / 1000 },
      streamedLimitSeconds: STREAMED_IMPORT_TIME_LIMIT_MS / 1000,
      loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
      cpus: cpuModel,
    };
  } finally {
    await db.$disconnect();
    await database.drop();
    await server.stop();
  }
}
