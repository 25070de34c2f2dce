import type { Metadata } from "next";
import { SubscriptionDetail } from "@/components/webhooks/subscription-detail";
import "@/components/catalog/catalog.css";
import "@/components/webhooks/webhooks.css";

export const metadata: Metadata = { title: "Webhook subscription" };

export default async function SubscriptionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <SubscriptionDetail id={id} />;
}
