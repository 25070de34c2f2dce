import type { Offer, Prisma } from "../../../db/generated/client.ts";
import { iso } from "../../../core/iso-date.ts";
import type { TEntitlementFeature } from "../entitlement/policies.schemas.ts";
import { storedLimit } from "./consumer-grant-limits.ts";
import {
  templateDefinition,
  type CopyRule,
  type TemplateDefinition,
  type TemplateField,
} from "./offer-template.ts";

/**
 * The template's values in each of their forms, field by field by the copy rule of
 * offer-template.ts: a row's data from a request, a request body from a row (an entitlement made
 * from an offer starts from it), a response from a row, and the catalog file's item from a row.
 * Offers and entitlements store the template in the same columns.
 */

type Values = Record<string, unknown>;
type Decimal = { toNumber(): number } | null;

const obj = (v: unknown) =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** A key policy without `sequenceCurrent`: the last code number issued is the source tenant's counter. */
export function portableKeyPolicy(policy: unknown): Record<string, unknown> {
  const { sequenceCurrent: _counter, ...rest } = obj(policy);
  return rest;
}

/** An offer's feature snapshot as the catalog file carries it: its settings of its products' features. */
const portableFeatures = (features: unknown) =>
  ((Array.isArray(features) ? features : []) as TEntitlementFeature[]).map((f) => ({
    productId: f.productId,
    featureCode: f.featureCode,
    value: f.value,
    isEnabled: f.isEnabled,
    canModifyValueOnEntitlement: f.canModifyValueOnEntitlement,
    includeInLicenseToken: f.includeInLicenseToken,
    featureExpiration: f.featureExpiration,
  }));

const SKIP = Symbol("the caller supplies this form");
type Convert = (v: unknown) => unknown;
const same: Convert = (v) => v;

/** Per copy rule: request value → row data. The feature snapshot is taken by the caller (template-snapshot.ts). */
const toRow: Record<CopyRule, Convert> = {
  value: same,
  date: (v) => (v ? new Date(v as string) : null),
  limit: (v) => storedLimit(v as number | null),
  policy: same,
  keyPolicy: same,
  products: same,
  features: () => SKIP,
};

/** Per copy rule: row → request value. Features are settings by code, which each caller picks. */
const toRequest: Record<CopyRule, Convert> = {
  value: same,
  date: (v) => (v as Date | null)?.toISOString() ?? null,
  limit: (v) => (v as Decimal)?.toNumber() ?? null,
  policy: same,
  keyPolicy: same,
  products: same,
  features: () => SKIP,
};

/** Per copy rule: row → response value. Product summaries are read by the caller. */
const toResponse: Record<CopyRule, Convert> = {
  value: same,
  date: (v) => iso(v as Date | null),
  limit: (v) => (v as Decimal)?.toNumber() ?? null,
  policy: obj,
  keyPolicy: obj,
  products: () => SKIP,
  features: (v) => v as TEntitlementFeature[],
};

/** Per copy rule: row → catalog file value. */
const toPortable: Record<CopyRule, Convert> = {
  value: same,
  date: (v) => iso(v as Date | null),
  limit: (v) => (v as Decimal)?.toNumber() ?? null,
  policy: obj,
  keyPolicy: portableKeyPolicy,
  products: same,
  features: portableFeatures,
};

function convert(
  definition: TemplateDefinition,
  source: Values,
  rules: Record<CopyRule, Convert>,
  options: { portableOnly?: boolean } = {},
): Values {
  return Object.fromEntries(
    Object.entries(definition).flatMap(([name, d]) => {
      if (options.portableOnly && d.portable === null) return [];
      const value = rules[d.copy](source[name]);
      return value === SKIP ? [] : [[name, value]];
    }),
  );
}

/** The copies of one template definition (the service's is `templateCopy` below; tests pass their own). */
export function templateCopies(definition: TemplateDefinition) {
  return {
    /** A parsed request's template as row data, features left to the caller. */
    rowData: (request: Values) => convert(definition, request, toRow),
    /** A row's template as a request body, features left to the caller. */
    requestValues: (row: Values) => convert(definition, row, toRequest),
    /** A row's template as a response, products left to the caller (as product summaries). */
    responseValues: (row: Values) => convert(definition, row, toResponse),
    /** A row's template as the catalog file's item holds it (fields with a file schema only). */
    portableValues: (row: Values) => convert(definition, row, toPortable, { portableOnly: true }),
  };
}

const copies = templateCopies(templateDefinition);

/** The template columns of an offer (an entitlement has the same). */
export type TemplateRow = Pick<Offer, TemplateField>;
/** Row data of the template for a create or update of an offer or entitlement (features excluded). */
export type TemplateRowData = Pick<Prisma.OfferUncheckedCreateInput, Exclude<TemplateField, "features">>;

export const templateCopy = {
  rowData: (request: object) => copies.rowData(request as Values) as TemplateRowData,
  requestValues: (row: TemplateRow) => copies.requestValues(row),
  responseValues: (row: TemplateRow) => copies.responseValues(row),
  portableValues: (row: TemplateRow) => copies.portableValues(row),
};
