import type { Metadata } from "next";
import { ActivationCodesPanel } from "@/components/licensing/activation-codes-panel";

export const metadata: Metadata = { title: "Activation codes" };

export default function ActivationCodesPage() {
  return (
    <>
      <div className="page-head">
        <h1>Activation codes</h1>
        <p className="muted">
          Codes follow the entitlement&apos;s key issuance policy and are unique across the whole service.
          Revoking a code stops new activations only.
        </p>
      </div>
      <ActivationCodesPanel />
    </>
  );
}
