import type { Metadata } from "next";
import { FleetDevices } from "@/components/licensing/fleet-devices";

export const metadata: Metadata = { title: "Devices" };

export default function DevicesPage() {
  return (
    <>
      <div className="page-head">
        <h1>Devices</h1>
        <p className="muted">
          Every device that activated one of your entitlements. Deactivate one to free its seats, or block it.
          Resetting all of a license&apos;s devices, and its credit balances, are on the entitlement&apos;s
          page. Fingerprints are kept only as SHA-256 hashes.
        </p>
      </div>
      <FleetDevices />
    </>
  );
}
