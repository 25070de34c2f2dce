import type { Metadata } from "next";
import { SubscriptionsTable } from "@/components/webhooks/subscriptions-table";
import { WebhooksSubnav } from "@/components/webhooks/webhook-badges";
import "@/components/catalog/catalog.css";
import "@/components/webhooks/webhooks.css";

export const metadata: Metadata = { title: "Webhooks" };

export default function WebhooksPage() {
  return (
    <>
      <div className="page-head">
        <h1>Webhooks</h1>
        <p className="muted">
          Signed CloudEvents (Standard Webhooks) to your endpoints, or captured for inspection. Integrations
          manage their own subscriptions through the integrator API; every one of them is listed here.
        </p>
      </div>
      <WebhooksSubnav current="subscriptions" />
      <SubscriptionsTable />
    </>
  );
}
