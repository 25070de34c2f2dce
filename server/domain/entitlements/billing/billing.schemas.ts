import { z } from "zod";
import { ZNumeric24_6 } from "../../../core/numeric.ts";

/** docs/api.md "Entitlement billing record" enums; `Unknown` is what a value we do not know reads as. */
export const billingModes = ["ProviderManaged", "OperatorManaged", "NotBillable", "Unknown"] as const;
export const billingMethods = [
  "Unspecified",
  "Subscription",
  "OneTime",
  "Invoice",
  "Free",
  "Unknown",
] as const;
export const billingIntervals = ["Unspecified", "Day", "Week", "Month", "Year", "Once", "Unknown"] as const;
export const billingStates = [
  "Unknown",
  "None",
  "Active",
  "Paid",
  "InvoiceOpen",
  "Trialing",
  "PastDue",
  "Paused",
  "Incomplete",
  "Canceled",
] as const;

/** Reads a stored enum value: a member we do not know (written by a newer connector, say) is `Unknown`. */
export const readEnum = <T extends readonly string[]>(
  values: T,
  value: string | null | undefined,
): T[number] =>
  (values as readonly string[]).includes(value ?? "") ? (value as T[number]) : ("Unknown" as T[number]);

/** ISO 4217 alphabetic codes: three upper-case letters (a well-formed code; the list is not pinned). */
const ZCurrency = z.string().regex(/^[A-Z]{3}$/, "currency is an ISO 4217 code such as EUR.");
const ZCountry = z.string().regex(/^[A-Z]{2}$/, "countryCode is an ISO 3166-1 alpha-2 code such as DE.");

/** ISO 3166-1 alpha-2 codes that are assigned (user-assigned and reserved ones are refused). */
const ASSIGNED_COUNTRIES = new Set(
  (
    "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ " +
    "DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT " +
    "JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI " +
    "NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK " +
    "TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"
  ).split(" "),
);

/** Active ISO 4217 codes (the currencies a bill can be written in). */
const ACTIVE_CURRENCIES = new Set(
  (
    "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB " +
    "EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA " +
    "MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN " +
    "SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XCG XOF XPF YER ZAR ZMW ZWG"
  ).split(" "),
);

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .default(null)
    .transform((v) => (v === "" ? null : v));

/**
 * PUT /admin/entitlements/{id}/billing: the operator-editable fields, a full replace (an absent
 * field is reset). `details` keys are prefixed by the provider name (`manual.costCentre`).
 */
export const ZBillingFields = z
  .object({
    provider: z.string().trim().min(1).max(100).default("manual"),
    mode: z.enum(billingModes).default("NotBillable"),
    modeReason: optionalText(1000),
    method: z.enum(billingMethods).default("Unspecified"),
    interval: z.enum(billingIntervals).default("Unspecified"),
    amount: ZNumeric24_6("amount").nullable().default(null),
    currency: ZCurrency.nullable()
      .default(null)
      .refine((c) => c === null || ACTIVE_CURRENCIES.has(c), "currency is not an active ISO 4217 code."),
    billingReference: optionalText(200),
    notes: optionalText(4000),
    contactName: optionalText(200),
    contactEmail: z.string().trim().email().max(320).nullable().default(null),
    contactPhone: optionalText(50),
    addressLine1: optionalText(200),
    addressLine2: optionalText(200),
    postalCode: optionalText(30),
    city: optionalText(100),
    stateOrProvince: optionalText(100),
    countryCode: ZCountry.nullable()
      .default(null)
      .refine(
        (c) => c === null || ASSIGNED_COUNTRIES.has(c),
        "countryCode is not an assigned ISO 3166-1 alpha-2 code.",
      ),
    details: z.record(z.string().max(200), z.string().max(4000)).default({}),
  })
  .superRefine((v, ctx) => {
    for (const key of Object.keys(v.details)) {
      if (!key.startsWith(`${v.provider}.`) || key.length === v.provider.length + 1) {
        ctx.addIssue({
          code: "custom",
          path: ["details", key],
          message: `details keys are prefixed by the provider name: "${v.provider}.<name>".`,
        });
      }
    }
    if (v.modeReason && v.mode !== "OperatorManaged") {
      ctx.addIssue({
        code: "custom",
        path: ["modeReason"],
        message: "modeReason is set with mode OperatorManaged.",
      });
    }
  });
export type TBillingFields = z.output<typeof ZBillingFields>;

export const ZBillingResponse = z.object({
  id: z.string().uuid(),
  entitlementId: z.string().uuid(),
  provider: z.string(),
  mode: z.enum(billingModes),
  modeReason: z.string().nullable(),
  method: z.enum(billingMethods),
  interval: z.enum(billingIntervals),
  amount: z.number().nullable(),
  currency: z.string().nullable(),
  billingReference: z.string().nullable(),
  notes: z.string().nullable(),
  contactName: z.string().nullable(),
  contactEmail: z.string().nullable(),
  contactPhone: z.string().nullable(),
  addressLine1: z.string().nullable(),
  addressLine2: z.string().nullable(),
  postalCode: z.string().nullable(),
  city: z.string().nullable(),
  stateOrProvince: z.string().nullable(),
  countryCode: z.string().nullable(),
  details: z.record(z.string(), z.string()),
  providerCustomerReference: z.string().nullable(),
  providerSubscriptionReference: z.string().nullable(),
  state: z.enum(billingStates),
  stateObservedAt: z.string().nullable(),
  currentPeriodEnd: z.string().nullable(),
  pastDueSince: z.string().nullable(),
  lapsedPendingSince: z.string().nullable(),
  lapsedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TBillingResponse = z.infer<typeof ZBillingResponse>;

/**
 * What a billing connector reports (and what the built-in `manual` provider's endpoint takes):
 * the provider's state of the subscription at `observedAt`, with its references.
 */
export const ZBillingProviderEvent = z.object({
  state: z.string().trim().min(1).max(100),
  observedAt: z.string().datetime({ offset: true }).optional(),
  currentPeriodEnd: z.string().datetime({ offset: true }).nullable().optional(),
  providerCustomerReference: z.string().trim().min(1).max(200).nullable().optional(),
  providerSubscriptionReference: z.string().trim().min(1).max(200).nullable().optional(),
});
export type TBillingProviderEvent = z.infer<typeof ZBillingProviderEvent>;
