import type { Metadata } from "next";
import { DeliveriesTable } from "@/components/webhooks/deliveries-table";
import { WebhooksSubnav } from "@/components/webhooks/webhook-badges";
import "@/components/catalog/catalog.css";
import "@/components/webhooks/webhooks.css";

export const metadata: Metadata = { title: "Webhook dead letters" };

export default function DeadLettersPage() {
  return (
    <>
      <div className="page-head">
        <h1>Webhooks</h1>
        <p className="muted">
          Deliveries whose eight attempts failed, or whose subscription stopped taking deliveries. Requeue
          sends one again with the same envelope id and a fresh retry schedule.
        </p>
      </div>
      <WebhooksSubnav current="dead-letters" />
      <DeliveriesTable deadLetters />
    </>
  );
}
