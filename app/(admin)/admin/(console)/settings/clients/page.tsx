import type { Metadata } from "next";
import { ClientsTable } from "@/components/identity/clients-table";
import { clientKinds } from "@/server/domain/identity/oauth-clients";

export const metadata: Metadata = { title: "API clients" };

export default function ClientsPage() {
  return (
    <>
      <div className="page-head">
        <h1>API clients</h1>
        <p className="muted">
          OAuth clients (client credentials) that your backends and integrations use to call the API. Each
          holds only the scopes it is granted.
        </p>
      </div>
      <ClientsTable kinds={clientKinds} />
    </>
  );
}
