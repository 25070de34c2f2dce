import type { Metadata } from "next";
import { ProductsTable } from "@/components/catalog/products/products-table";
import "@/components/catalog/catalog.css";

export const metadata: Metadata = { title: "Products" };

export default function ProductsPage() {
  return (
    <>
      <div className="page-head">
        <h1>Products</h1>
        <p className="muted">
          What you license, identified by code and version, with its features, properties and monitored
          assets.
        </p>
      </div>
      <ProductsTable />
    </>
  );
}
