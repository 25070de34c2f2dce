import type { Metadata } from "next";
import { EntitlementDevicesLookup } from "@/components/licensing/entitlement-devices-lookup";

export const metadata: Metadata = { title: "Devices" };

type Props = { searchParams: Promise<{ entitlementId?: string }> };

export default async function DevicesPage({ searchParams }: Props) {
  const { entitlementId } = await searchParams;
  return (
    <>
      <div className="page-head">
        <h1>Devices and balances</h1>
        <p className="muted">
          Reset, block and unblock an entitlement&apos;s devices; deposit to its credit balances. Fingerprints
          are kept only as SHA-256 hashes.
        </p>
      </div>
      <EntitlementDevicesLookup initialEntitlementId={entitlementId} />
    </>
  );
}
