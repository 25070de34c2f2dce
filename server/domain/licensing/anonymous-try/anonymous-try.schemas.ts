import { z } from "zod";
import { ZActivationLicenseResponse, ZActivationRequest } from "../activation/activation.schemas.ts";

/**
 * POST /activations/anonymous-try: a device asks for an anonymous trial of an offer that allows
 * one (`allowAnonymousTry`). The offer id names the vendor, as an activation code does; the other
 * fields are the activation request's (the try is activated like any license), without a code or
 * an interactive user.
 */
export const ZAnonymousTryRequest = ZActivationRequest.omit({
  activationCode: true,
  useInteractiveUser: true,
}).extend({ offerId: z.string().uuid() });
export type TAnonymousTryRequest = z.infer<typeof ZAnonymousTryRequest>;

/**
 * The activation answer of /activations/license, plus the try's activation code (the device keeps
 * it to activate again after its lease runs out) and the try's own dates.
 */
export const ZAnonymousTryResponse = ZActivationLicenseResponse.extend({
  activationCode: z.string(),
  anonymousTry: z.object({
    entitlementId: z.string().uuid(),
    anonymousTryIssuedAt: z.string(),
    expirationDateTime: z.string().nullable(),
    anonymousTryPurgeDueAt: z.string().nullable(),
    convertedToEntitlementId: z.string().uuid().nullable(),
  }),
});
export type TAnonymousTryResponse = z.infer<typeof ZAnonymousTryResponse>;

/** POST /operational/entitlements/{id}/convert: the anonymous try {id} became `convertedToEntitlementId`. */
export const ZConvertAnonymousTryRequest = z.strictObject({
  convertedToEntitlementId: z.string().uuid(),
});
export type TConvertAnonymousTryRequest = z.infer<typeof ZConvertAnonymousTryRequest>;
