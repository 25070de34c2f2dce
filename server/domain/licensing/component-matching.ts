import { Prisma, type Device } from "../../db/generated/client.ts";
import type { TenantTx } from "../../db/tenant-db.ts";
import type { componentMatchingStrategies } from "../entitlements/policies.schemas.ts";
import type { TComponents } from "./activation.schemas.ts";

type Strategy = (typeof componentMatchingStrategies)[number];

/**
 * Whether presented component hashes identify a known device (SPEC.md "Offline activation
 * artifacts"): `MatchAny` one equal component, `Two` at least two, `Most` more than half of the
 * known device's components; `MatchAll` never matches by components (the fingerprint must be equal).
 * Components are compared by key and exact hash value.
 */
export function componentsMatch(known: TComponents, presented: TComponents, strategy: Strategy): boolean {
  const keys = Object.keys(known);
  if (keys.length === 0 || strategy === "MatchAll") return false;
  const equal = keys.filter((k) => presented[k] !== undefined && presented[k] === known[k]).length;
  if (strategy === "MatchAny") return equal >= 1;
  if (strategy === "Two") return equal >= 2;
  return equal * 2 > keys.length;
}

/** The entitlement's device whose stored components match best under the strategy (most equal components), or null. */
export async function matchDeviceByComponents(tx: TenantTx, entitlementId: string, presented: TComponents, strategy: Strategy): Promise<Device | null> {
  const candidates = await tx.device.findMany({ where: { entitlementId, NOT: { components: { equals: Prisma.DbNull } } }, orderBy: { createdAt: "asc" } });
  let best: { device: Device; equal: number } | null = null;
  for (const device of candidates) {
    const known = (device.components ?? {}) as TComponents;
    if (!componentsMatch(known, presented, strategy)) continue;
    const equal = Object.keys(known).filter((k) => presented[k] === known[k]).length;
    if (!best || equal > best.equal) best = { device, equal };
  }
  return best?.device ?? null;
}
