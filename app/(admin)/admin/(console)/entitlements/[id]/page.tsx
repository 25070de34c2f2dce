import type { Metadata } from "next";
import { EntitlementDetail } from "@/components/entitlements/entitlement-detail";
import "@/components/pricing/pricing.css";
import "@/components/entitlements/workspace.css";

export const metadata: Metadata = { title: "Entitlement" };

export default async function EntitlementPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <EntitlementDetail id={id} />;
}
