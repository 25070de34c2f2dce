import type { Metadata } from "next";
import { AuditTable } from "@/components/audit/audit-table";

export const metadata: Metadata = { title: "Audit trail" };

export default function AuditPage() {
  return (
    <>
      <div className="page-head">
        <h1>Audit trail</h1>
        <p className="muted">
          Every change made through the API, this back office or the CLI: who, what, when and which fields.
          Secrets, tokens and fingerprints are never recorded.
        </p>
      </div>
      <AuditTable />
    </>
  );
}
