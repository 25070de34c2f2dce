import type { z } from "zod";
import type { DomainContext } from "../context.ts";
import type { CsvValue } from "../reports/report-export.ts";
import { csvDecimal } from "../../core/format.ts";
import { customerNames } from "../customers/customer-names.ts";

/**
 * The flat column set of a list export (docs/decisions.md "List exports for spreadsheets"), derived
 * from the list's response schema so it is stable per list:
 * - a scalar field is one column, a list of scalars one column joined with "; ";
 * - a list of named objects (an entitlement's products) becomes `<field>Names` and `<field>Ids`;
 *   another list of objects becomes `<field>Count`;
 * - an object with a fixed shape is flattened one level (`claimBasedActivation.numberOfSeats`);
 *   a free-form map (policies, overrides) is left out: it has no stable columns;
 * - an id with a known owner gets the owner's name in the next column (`customerId`,
 *   `customerName`). No cell is JSON.
 */
export type FlatColumn = { header: string; cell: (item: Record<string, unknown>) => CsvValue };

type Def = {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  in?: z.ZodType;
};
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

function unwrap(schema: z.ZodType): Def {
  let def = defOf(schema);
  for (let i = 0; i < 10 && def.innerType; i++) def = defOf(def.innerType);
  if (def.type === "pipe" && def.in) return unwrap(def.in);
  return def;
}

const SCALARS = new Set(["string", "number", "int", "boolean", "enum", "literal", "bigint", "date"]);
const isScalar = (def: Def) => SCALARS.has(def.type);

/** A scalar cell: decimal strings as plain decimals, everything else as it is. */
export function scalarCell(value: unknown): CsvValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "number") return Number(csvDecimal(value));
  if (typeof value === "string" || typeof value === "boolean") return value;
  if (value instanceof Date) return value.toISOString();
  return null;
}

const joined = (values: unknown[]) =>
  values.map((v) => (v === null || v === undefined ? "" : String(v))).join("; ");

/** The flat columns of a response schema (see above). */
export function flatColumns(schema: z.ZodObject): FlatColumn[] {
  const columns: FlatColumn[] = [];
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const def = unwrap(field);
    if (isScalar(def)) {
      columns.push({ header: key, cell: (item) => scalarCell(item[key]) });
    } else if (def.type === "array" && def.element) {
      const element = unwrap(def.element);
      if (isScalar(element)) {
        columns.push({ header: key, cell: (item) => joined((item[key] as unknown[] | null) ?? []) });
      } else if (element.type === "object" && element.shape && "name" in element.shape) {
        const singular = key.replace(/s$/, "");
        const list = (item: Record<string, unknown>) => (item[key] as Record<string, unknown>[] | null) ?? [];
        columns.push({ header: `${singular}Names`, cell: (item) => joined(list(item).map((e) => e.name)) });
        if ("id" in element.shape)
          columns.push({ header: `${singular}Ids`, cell: (item) => joined(list(item).map((e) => e.id)) });
      } else {
        columns.push({
          header: `${key}Count`,
          cell: (item) => ((item[key] as unknown[] | null) ?? []).length,
        });
      }
    } else if (def.type === "object" && def.shape) {
      for (const [sub, subField] of Object.entries(def.shape)) {
        if (!isScalar(unwrap(subField))) continue;
        columns.push({
          header: `${key}.${sub}`,
          cell: (item) => scalarCell((item[key] as Record<string, unknown> | null)?.[sub]),
        });
      }
    }
    // A record (free-form map) has no stable columns and is left out.
  }
  return columns;
}

/** Names of the rows an id column points at, read for one batch at a time. */
type NameLookup = (
  ctx: DomainContext,
  ids: string[],
  items: Record<string, unknown>[],
) => Promise<Map<string, string>>;

const byId = (rows: { id: string; name: string | null }[]) =>
  new Map(rows.map((r) => [r.id, r.name ?? ""] as [string, string]));

const offerNames: NameLookup = async (ctx, ids) =>
  byId(await ctx.db.offer.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } }));
const entitlementNames: NameLookup = async (ctx, ids) =>
  byId(await ctx.db.entitlement.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } }));
const productNames: NameLookup = async (ctx, ids) =>
  byId(await ctx.db.product.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } }));
const suiteNames: NameLookup = async (ctx, ids) =>
  byId(await ctx.db.suite.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } }));
const planSetNames: NameLookup = async (ctx, ids) =>
  byId(await ctx.db.usagePlanSet.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } }));

/** Id columns whose owner has a name, and the name column written beside each. */
export const nameLookups: Record<string, { header: string; lookup: NameLookup }> = {
  customerId: { header: "customerName", lookup: (ctx, ids) => customerNames(ctx, ids) },
  sourceOfferId: { header: "sourceOfferName", lookup: offerNames },
  originOfferId: { header: "originOfferName", lookup: offerNames },
  offerId: { header: "offerName", lookup: offerNames },
  entitlementId: { header: "entitlementName", lookup: entitlementNames },
  productId: { header: "productName", lookup: productNames },
  parentProductId: { header: "parentProductName", lookup: productNames },
  suiteId: { header: "suiteName", lookup: suiteNames },
  planSetId: { header: "planSetName", lookup: planSetNames },
};

/**
 * The columns of an export and a function that reads one batch's names: every id column with a
 * lookup is followed by its name column.
 */
export function exportColumns(schema: z.ZodObject) {
  const flat = flatColumns(schema);
  const columns: (FlatColumn & { nameOf?: string })[] = [];
  for (const column of flat) {
    columns.push(column);
    const named = nameLookups[column.header];
    if (named) columns.push({ header: named.header, cell: () => null, nameOf: column.header });
  }
  async function rows(
    ctx: DomainContext,
    items: Record<string, unknown>[],
  ): Promise<Record<string, CsvValue>[]> {
    const names = new Map<string, Map<string, string>>();
    for (const column of columns) {
      if (!column.nameOf) continue;
      const ids = [
        ...new Set(items.map((i) => i[column.nameOf!]).filter((v): v is string => typeof v === "string")),
      ];
      names.set(
        column.nameOf,
        ids.length ? await nameLookups[column.nameOf].lookup(ctx, ids, items) : new Map(),
      );
    }
    return items.map((item) =>
      Object.fromEntries(
        columns.map((c) => [
          c.header,
          c.nameOf ? (names.get(c.nameOf)?.get(item[c.nameOf] as string) ?? null) : c.cell(item),
        ]),
      ),
    );
  }
  return { headers: columns.map((c) => c.header), rows };
}
