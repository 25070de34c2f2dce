import type { Metadata } from "next";
import { ProductDetail } from "@/components/catalog/products/product-detail";
import "@/components/catalog/catalog.css";

export const metadata: Metadata = { title: "Product" };

export default async function ProductPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ProductDetail id={id} />;
}
