import { z } from "zod";
import { ZKeyIssuancePolicy } from "../entitlement/key-issuance-policy.schemas.ts";
import { consumerGrantLimitFields } from "./consumer-grant-limits.ts";
import {
  ZActivationPolicy,
  ZClaimBasedActivation,
  ZEntitlementFeature,
  ZFeatureSetting,
  ZProductSummary,
} from "../entitlement/policies.schemas.ts";

/**
 * The offer/entitlement template (docs/api.md "Entitlement and offer"): the fields an offer and a
 * direct entitlement share, which an entitlement made from an offer copies. Every form of them is
 * derived from the one table below (the request and response schemas of offers and entitlements,
 * the catalog file's offer item, and template-copy.ts's row, request, response and file values),
 * so a new template field is one entry here.
 */

/**
 * How a field's value travels between the stored row and its other forms:
 * - `value`: as stored, everywhere;
 * - `date`: a Date in the row, an ISO 8601 string (or null) elsewhere;
 * - `limit`: a decimal of 6 places in the row, a number (or null) elsewhere (consumer-grant-limits.ts);
 * - `policy`: a JSON object (a response reads anything else as {});
 * - `keyPolicy`: a policy whose `sequenceCurrent` is the tenant's own code counter, left out of the file;
 * - `products`: product ids, answered as product summaries (`products`);
 * - `features`: the feature snapshot taken from the products; a request gives settings by code.
 */
export type CopyRule = "value" | "date" | "limit" | "policy" | "keyPolicy" | "products" | "features";

/** One template field: its copy rule and its schema in a request, a response and the catalog file. */
export type TemplateFieldDefinition = {
  copy: CopyRule;
  request: z.ZodType;
  response: z.ZodType;
  /** Null: the field is not part of the catalog file (the reason is given at the field). */
  portable: z.ZodType | null;
};

const field = <C extends CopyRule, Q extends z.ZodType, R extends z.ZodType, P extends z.ZodType | null>(
  copy: C,
  request: Q,
  response: R,
  portable: P,
) => ({ copy, request, response, portable });

const ZTimestamp = z.string().datetime({ offset: true });
const ZFileTimestamp = z.iso.datetime({ offset: true });
const ZFileJsonObject = z.record(z.string(), z.unknown());
const ZResponseJsonObject = z.record(z.string(), z.unknown());
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .default(null)
    .transform((v) => (v === "" ? null : v));
const fileText = () => z.string().nullable().default(null);
const flag = () => field("value", z.boolean().default(false), z.boolean(), z.boolean().default(false));

/** A feature setting of an offer in the catalog file: what the offer changes on its products' features, by code. */
export const ZPortableOfferFeature = z.object({
  productId: z.string().uuid(),
  featureCode: z.string(),
  value: z.string().nullable().default(null),
  isEnabled: z.boolean().default(true),
  canModifyValueOnEntitlement: z.boolean().default(false),
  includeInLicenseToken: z.boolean().default(true),
  featureExpiration: ZFileTimestamp.nullable().default(null),
});

/** The template, in the order every request, response and file lists its fields. */
export const templateDefinition = {
  name: field(
    "value",
    z.string().trim().min(1, "A name cannot be empty.").max(200),
    z.string(),
    z.string().min(1).max(200),
  ),
  description: field(
    "value",
    z
      .string()
      .max(4000)
      .nullable()
      .default("")
      .transform((v) => v ?? ""),
    z.string(),
    z.string().default(""),
  ),
  subscriptionStatus: field(
    "value",
    z.string().trim().min(1).max(50).default("Pending"),
    z.string(),
    z.string().default("Pending"),
  ),
  licenseTermsUrl: field(
    "value",
    z.string().trim().url().max(2000).nullable().default(null),
    z.string().nullable(),
    fileText(),
  ),
  customerContactName: field("value", optionalText(200), z.string().nullable(), fileText()),
  customerContactEmail: field(
    "value",
    z.string().trim().email().max(320).nullable().default(null),
    z.string().nullable(),
    fileText(),
  ),
  licenseKey: field("value", optionalText(200), z.string().nullable(), fileText()),
  notValidBeforeDateTime: field(
    "date",
    ZTimestamp.nullable().default(null),
    z.string().nullable(),
    ZFileTimestamp.nullable().default(null),
  ),
  expirationDateTime: field(
    "date",
    ZTimestamp.nullable().default(null),
    z.string().nullable(),
    ZFileTimestamp.nullable().default(null),
  ),
  isEntitlementTrial: flag(),
  issueOnUserRegistration: flag(),
  allowAnonymousTry: flag(),
  consumersMayGrantCredits: flag(),
  // Not in the catalog file: format 1.0.0 was published before the limits existed; carrying them
  // is a new optional field of the format (docs/decisions.md "House order, round 3").
  consumerGrantLimitPerGrant: field(
    "limit",
    consumerGrantLimitFields.consumerGrantLimitPerGrant,
    z.number().nullable(),
    null,
  ),
  consumerGrantLimitPerMonth: field(
    "limit",
    consumerGrantLimitFields.consumerGrantLimitPerMonth,
    z.number().nullable(),
    null,
  ),
  isPlatformOffer: flag(),
  productIds: field(
    "products",
    z.array(z.string().uuid()).max(100).default([]),
    z.array(ZProductSummary),
    z.array(z.string().uuid()).default([]),
  ),
  /** Changes to the features snapshotted from the products, by featureCode. */
  features: field(
    "features",
    z.array(ZFeatureSetting).max(500).default([]),
    z.array(ZEntitlementFeature),
    z.array(ZPortableOfferFeature).default([]),
  ),
  planSetId: field(
    "value",
    z.string().uuid().nullable().default(null),
    z.string().uuid().nullable(),
    z.string().uuid().nullable().default(null),
  ),
  planName: field(
    "value",
    z.string().trim().min(1).max(200).nullable().default(null),
    z.string().nullable(),
    fileText(),
  ),
  activationPolicy: field(
    "policy",
    ZActivationPolicy.default(ZActivationPolicy.parse({})),
    ZResponseJsonObject,
    ZFileJsonObject.default({}),
  ),
  keyIssuancePolicy: field(
    "keyPolicy",
    ZKeyIssuancePolicy.default(ZKeyIssuancePolicy.parse({})),
    ZResponseJsonObject,
    ZFileJsonObject.default({}),
  ),
  claimBasedActivation: field(
    "policy",
    ZClaimBasedActivation.default(ZClaimBasedActivation.parse({})),
    ZResponseJsonObject,
    ZFileJsonObject.default({}),
  ),
} satisfies Record<string, TemplateFieldDefinition>;

export type TemplateDefinition = Record<string, TemplateFieldDefinition>;
type Definition = typeof templateDefinition;
export type TemplateField = keyof Definition;

/** The field names of a definition, in its order. */
export const fieldNamesOf = <D extends TemplateDefinition>(definition: D) =>
  Object.keys(definition) as (keyof D & string)[];

export const templateFieldNames = fieldNamesOf(templateDefinition);

/** The response key of a field: product ids are answered as product summaries. */
export const responseKeyOf = (name: string, definition: TemplateFieldDefinition) =>
  definition.copy === "products" ? "products" : name;

type RequestShape<D extends TemplateDefinition> = { [F in keyof D]: D[F]["request"] };
type ResponseShape<D extends TemplateDefinition> = {
  [F in keyof D as D[F]["copy"] extends "products" ? "products" : F]: D[F]["response"];
};
type PortableShape<D extends TemplateDefinition> = {
  [F in keyof D as D[F]["portable"] extends null ? never : F]: Exclude<D[F]["portable"], null>;
};

/** A definition's request fields (zod shape). */
export function requestShapeOf<D extends TemplateDefinition>(definition: D): RequestShape<D> {
  return Object.fromEntries(
    Object.entries(definition).map(([name, d]) => [name, d.request]),
  ) as RequestShape<D>;
}

/** A definition's response fields (zod shape). */
export function responseShapeOf<D extends TemplateDefinition>(definition: D): ResponseShape<D> {
  return Object.fromEntries(
    Object.entries(definition).map(([name, d]) => [responseKeyOf(name, d), d.response]),
  ) as ResponseShape<D>;
}

/** A definition's catalog-file fields (zod shape): the fields whose `portable` is not null. */
export function portableShapeOf<D extends TemplateDefinition>(definition: D): PortableShape<D> {
  return Object.fromEntries(
    Object.entries(definition).flatMap(([name, d]) => (d.portable ? [[name, d.portable]] : [])),
  ) as PortableShape<D>;
}

/** A template names a plan by both its plan set and its name, or by neither. */
export const planPairRule = (
  v: { planSetId: string | null; planName: string | null },
  ctx: z.RefinementCtx,
) => {
  if ((v.planSetId === null) !== (v.planName === null))
    ctx.addIssue({
      code: "custom",
      path: ["planName"],
      message: "planSetId and planName are given together.",
    });
};

/** The template fields of the offer and entitlement write requests. */
export const templateFields = requestShapeOf(templateDefinition);
/** The template fields of the offer and entitlement responses. */
export const templateResponseFields = responseShapeOf(templateDefinition);
/** The template fields of the catalog file's offer item. */
export const templatePortableFields = portableShapeOf(templateDefinition);
