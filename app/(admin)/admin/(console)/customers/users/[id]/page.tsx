import type { Metadata } from "next";
import { Customer360 } from "@/components/customers/customer-360";
import "@/components/dashboard/dashboard.css";

export const metadata: Metadata = { title: "Customer" };

type Props = { params: Promise<{ id: string }> };

/** Customer 360 of a customer user. */
export default async function CustomerUserPage({ params }: Props) {
  const { id } = await params;
  return <Customer360 kind="User" id={id} />;
}
