import type { Metadata } from "next";
import { SuiteDetail } from "@/components/pricing/suite-detail";
import "@/components/pricing/pricing.css";

export const metadata: Metadata = { title: "Suite" };

export default async function SuitePage({ params }: { params: Promise<{ suiteId: string }> }) {
  const { suiteId } = await params;
  return <SuiteDetail suiteId={suiteId} />;
}
