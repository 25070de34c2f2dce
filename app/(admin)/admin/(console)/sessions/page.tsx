import type { Metadata } from "next";
import { SessionsTable } from "@/components/licensing/sessions-table";

export const metadata: Metadata = { title: "Sessions" };

/** `?entitlementId=` and `?userId=` (the sessions list's own URL state) choose whose sessions show. */
export default function SessionsPage() {
  return (
    <>
      <div className="page-head">
        <h1>Sessions</h1>
        <p className="muted">
          Every activated seat (device or process). A session is active while its lease runs, it is inside its
          validity window and it is not revoked. Choose an entitlement to see its live seats and their use
          over time.
        </p>
      </div>
      <SessionsTable />
    </>
  );
}
