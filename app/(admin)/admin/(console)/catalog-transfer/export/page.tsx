import type { Metadata } from "next";
import { ExportWizard } from "@/components/portability/export-wizard";
import "@/components/portability/portability.css";

export const metadata: Metadata = { title: "Export catalog" };

export default function CatalogExportPage() {
  return (
    <>
      <div className="page-head">
        <h1>Export catalog</h1>
        <p className="muted">
          A catalog snapshot of the sections you choose, with everything they depend on unless you ask for a
          strict slice. The file can be imported into another tenant.
        </p>
      </div>
      <ExportWizard />
    </>
  );
}
