import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Catalog export and import" };

export default function CatalogTransferPage() {
  return (
    <>
      <div className="page-head">
        <h1>Catalog export and import</h1>
        <p className="muted">
          Move a catalog between tenants: from staging to production, or from one region to another. Records
          are matched by their natural keys (product code and version, feature code, suite and add-on codes,
          names), since ids differ between tenants.
        </p>
      </div>
      <div className="card-grid">
        <Link className="card-link" href="/admin/catalog-transfer/export">
          <span className="card-link-title">Export</span>
          <span className="muted">Choose sections and items, preview, download a file.</span>
        </Link>
        <Link className="card-link" href="/admin/catalog-transfer/import">
          <span className="card-link-title">Import</span>
          <span className="muted">Upload a file, review a dry run, choose what to apply.</span>
        </Link>
      </div>
    </>
  );
}
