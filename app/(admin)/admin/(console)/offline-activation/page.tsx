import type { Metadata } from "next";
import { OfflineActivationForm } from "@/components/licensing/offline-activation-form";

export const metadata: Metadata = { title: "Offline activation" };

export default function OfflineActivationPage() {
  return (
    <>
      <div className="page-head">
        <h1>Offline activation</h1>
        <p className="muted">
          For devices without a connection: paste the request artifact the application wrote, issue the signed
          response and carry it back. The license must allow offline activation; the same request always
          answers the same response.
        </p>
      </div>
      <OfflineActivationForm />
    </>
  );
}
