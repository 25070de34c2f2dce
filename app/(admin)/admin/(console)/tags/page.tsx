import type { Metadata } from "next";
import { TagsTable } from "@/components/catalog/tags/tags-table";

export const metadata: Metadata = { title: "Tags" };

export default function TagsPage() {
  return (
    <>
      <div className="page-head">
        <h1>Tags</h1>
        <p className="muted">
          Labels that organise the catalog. Names are unique per scope regardless of case; tags never reach
          licenses or the portal.
        </p>
      </div>
      <TagsTable />
    </>
  );
}
