import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { NotBuilt } from "@/components/ui/not-built";
import { findAdminArea } from "@/components/shell/admin-areas";

type Props = { params: Promise<{ area: string[] }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const area = findAdminArea((await params).area.join("/"));
  return { title: area?.label ?? "Not found" };
}

/** Areas of the back office whose screens are not built yet; a built area has its own route. */
export default async function PendingAreaPage({ params }: Props) {
  const area = findAdminArea((await params).area.join("/"));
  if (!area || area.built || !area.arrivesWith) notFound();
  return (
    <>
      <div className="page-head">
        <h1>{area.label}</h1>
      </div>
      <NotBuilt area={area.label} arrivesWith={area.arrivesWith} />
    </>
  );
}
