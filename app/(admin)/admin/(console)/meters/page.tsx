import type { Metadata } from "next";
import { EntitlementMetersLookup } from "@/components/metering/entitlement-meters-lookup";

export const metadata: Metadata = { title: "Meters" };

type Props = { searchParams: Promise<{ entitlementId?: string }> };

export default async function MetersPage({ searchParams }: Props) {
  const { entitlementId } = await searchParams;
  return (
    <>
      <div className="page-head">
        <h1>Meters and balances</h1>
        <p className="muted">
          An entitlement&apos;s metered usage per period, its credit balances over time, overage status and
          auto-balance schedule.
        </p>
      </div>
      <EntitlementMetersLookup initialEntitlementId={entitlementId} />
    </>
  );
}
