import type { Device } from "../../../db/generated/client.ts";

export type DeviceFacts = Pick<
  Device,
  "id" | "fingerprintHash" | "deviceName" | "isPreRegistered" | "isBlocked"
>;

export type SessionHandle = {
  id: string;
  seatHeldUntil: string;
  activationCodeId: string | null;
  productIds: string[];
};

/** Everything else the decision reads, in one round trip once the entitlement is locked (ACTIVATION_FACTS). */
export type ActivationFacts = {
  /** The claims' seat count and floating flag as the statement read them (checked against the parsed claims). */
  seatLimit: number;
  floating: boolean;
  activeKid: string | null;
  allProductsEnded: boolean | null;
  device: DeviceFacts | null;
  /** Sessions the fingerprint's device ever had: a device that never activated meets end of life. */
  deviceSessionCount: number;
  /** The device's unrevoked session an activation returns (on a floating license, of the same process). */
  existing: SessionHandle | null;
  /** Seats held, counted up to the seat count; below it, possibly an upper bound (unrevoked sessions). */
  seatsHeld: number;
  codeHolders: string[] | null;
  billing: {
    provider: string | null;
    providerSubscriptionReference: string | null;
    providerCustomerReference: string | null;
  } | null;
  customerExternalReference: string | null;
  hasGrants: boolean;
  /** The session the Idempotency-Key made, with its device's fingerprint hash. */
  previous: (Record<string, unknown> & { fingerprintHash: string }) | null;
};
