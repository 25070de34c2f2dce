import type { Metadata } from "next";
import Link from "next/link";
import { ApiDocs } from "@/components/api-docs/api-docs";
import type { OpenApiDocument } from "@/components/api-docs/types";
import { buildOpenApi } from "@/server/http/openapi";

export const metadata: Metadata = { title: "API docs" };

/** The same document /api/v1/openapi.json serves, built on the server from the routes' contracts. */
export default function ApiDocsPage() {
  const doc = buildOpenApi() as OpenApiDocument;
  return (
    <>
      <div className="page-head">
        <h1>API docs</h1>
        <p className="muted">
          {doc.info?.description} Authenticate with a client of{" "}
          <Link href="/admin/settings/clients">API clients</Link>.
        </p>
      </div>
      <ApiDocs doc={doc} />
    </>
  );
}
