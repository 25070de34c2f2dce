import type { Metadata } from "next";
import { DeliveriesTable } from "@/components/webhooks/deliveries-table";
import { WebhooksSubnav } from "@/components/webhooks/webhook-badges";
import "@/components/catalog/catalog.css";
import "@/components/webhooks/webhooks.css";

export const metadata: Metadata = { title: "Webhook deliveries" };

export default function DeliveriesPage() {
  return (
    <>
      <div className="page-head">
        <h1>Webhooks</h1>
        <p className="muted">
          Every delivery of the tenant with each attempt: status, response code, duration, error and response
          excerpt.
        </p>
      </div>
      <WebhooksSubnav current="deliveries" />
      <DeliveriesTable />
    </>
  );
}
