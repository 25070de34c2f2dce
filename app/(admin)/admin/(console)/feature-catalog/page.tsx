import type { Metadata } from "next";
import { FeatureCatalogTable } from "@/components/catalog/feature-catalog/feature-catalog-table";
import "@/components/catalog/catalog.css";

export const metadata: Metadata = { title: "Feature catalog" };

export default function FeatureCatalogPage() {
  return (
    <>
      <div className="page-head">
        <h1>Feature catalog</h1>
        <p className="muted">
          Every feature products, plans and add-ons can grant. The type decides how values are read; codes and
          lifecycle have their own actions.
        </p>
      </div>
      <FeatureCatalogTable />
    </>
  );
}
