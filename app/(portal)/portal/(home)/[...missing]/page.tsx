import { notFound } from "next/navigation";

/** Any other address under /portal: the portal's own not-found page, inside its shell. */
export default function PortalMissingPage() {
  notFound();
}
