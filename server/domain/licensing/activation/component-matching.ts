import type { SqlTx } from "../../../db/sql.ts";
import { AppError } from "../../../core/errors.ts";
import type { componentMatchingStrategies } from "../../entitlements/entitlement/policies.schemas.ts";
import type { TComponents } from "./activation.schemas.ts";
import { DEVICES_SHARING_COMPONENTS, REKEY_DEVICE } from "./activation-sql.ts";

type Strategy = (typeof componentMatchingStrategies)[number];

export type MatchedDevice = {
  id: string;
  fingerprintHash: string;
  deviceName: string | null;
  isPreRegistered: boolean;
  isBlocked: boolean;
};

type Candidate = MatchedDevice & {
  fingerprintHistory: { fingerprintHash: string }[] | null;
  /** How many components the device stored. */
  stored: number;
  /** How many of them the request presented with the same hash. */
  equal: number;
};

/**
 * Whether `equal` of a device's `stored` components meet the strategy's threshold (docs/api.md
 * "Offline activation artifacts"; docs/decisions.md "Component matching"): `MatchAny` one,
 * `Two` two, `Most` more than half of the device's stored components and never fewer than two;
 * `MatchAll` never matches by components (the fingerprint must be equal). Counted against the
 * device's own stored components, which a match never overwrites.
 */
export function meetsThreshold(strategy: Strategy, equal: number, stored: number): boolean {
  if (strategy === "MatchAll" || stored === 0) return false;
  if (strategy === "MatchAny") return equal >= 1;
  if (strategy === "Two") return equal >= 2;
  return equal >= 2 && equal * 2 > stored;
}

/** meetsThreshold for a known device's components and presented ones, compared by key and exact hash. */
export function componentsMatch(known: TComponents, presented: TComponents, strategy: Strategy): boolean {
  const keys = Object.keys(known);
  const equal = keys.filter((k) => presented[k] !== undefined && presented[k] === known[k]).length;
  return meetsThreshold(strategy, equal, keys.length);
}

/**
 * The device a changed fingerprint belongs to, by its components: the license's
 * devices sharing a presented component are found by index, the one sharing most that meets the
 * threshold is it. A blocked device matched so is refused (`license.device_blocked`: the block
 * follows the machine, and the blocked device is never re-keyed); a device never takes back a
 * fingerprint it was re-keyed away from (the machine that left it is another one now). The match
 * re-keys the device to the new fingerprint and records it in `fingerprintHistory`.
 */
export async function rekeyDeviceByComponents(
  sql: SqlTx,
  tenantId: string,
  entitlementId: string,
  presented: TComponents,
  strategy: Strategy,
  hash: string,
  at: Date,
): Promise<MatchedDevice | null> {
  if (strategy === "MatchAll") return null;
  const names = Object.keys(presented);
  if (names.length === 0) return null;
  const candidates = await sql.query<Candidate>(DEVICES_SHARING_COMPONENTS, [
    tenantId,
    entitlementId,
    names,
    names.map((n) => presented[n]),
  ]);
  for (const candidate of candidates) {
    if (!meetsThreshold(strategy, candidate.equal, candidate.stored)) continue;
    if (candidate.isBlocked)
      throw new AppError("license.device_blocked", "The device is blocked on this license.");
    if ((candidate.fingerprintHistory ?? []).some((h) => h.fingerprintHash === hash)) continue;
    const entry = {
      fingerprintHash: candidate.fingerprintHash,
      replacedBy: hash,
      rekeyedAt: at.toISOString(),
      strategy,
      equalComponents: candidate.equal,
    };
    const [device] = await sql.query<MatchedDevice>(REKEY_DEVICE, [
      tenantId,
      candidate.id,
      hash,
      JSON.stringify(entry),
      at,
    ]);
    return device;
  }
  return null;
}
