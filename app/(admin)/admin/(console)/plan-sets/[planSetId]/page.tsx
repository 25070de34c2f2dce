import type { Metadata } from "next";
import { Suspense } from "react";
import { PlanSetEditor } from "@/components/pricing/plan-set-editor";
import "@/components/pricing/pricing.css";

export const metadata: Metadata = { title: "Plan set" };

export default async function PlanSetPage({ params }: { params: Promise<{ planSetId: string }> }) {
  const { planSetId } = await params;
  return (
    <Suspense>
      <PlanSetEditor planSetId={planSetId} />
    </Suspense>
  );
}
