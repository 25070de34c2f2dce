import { StatusPage } from "@/components/shell/status-page";

/** A portal address that leads nowhere, inside the portal's shell. */
export default function PortalNotFound() {
  return (
    <StatusPage
      code="Page not found"
      title="We could not find that page"
      home="/portal"
      homeLabel="Back to your licenses"
    >
      <p>The address may be mistyped, or the page has moved.</p>
    </StatusPage>
  );
}
