import type { Metadata } from "next";
import { ImportWizard } from "@/components/portability/import-wizard";
import "@/components/portability/portability.css";

export const metadata: Metadata = { title: "Import catalog" };

export default function CatalogImportPage() {
  return (
    <>
      <div className="page-head">
        <h1>Import catalog</h1>
        <p className="muted">
          Import a catalog file into this tenant. A dry run shows what would be created, updated or skipped,
          and why, before anything changes.
        </p>
      </div>
      <ImportWizard />
    </>
  );
}
