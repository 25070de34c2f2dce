import { StatusPage } from "@/components/shell/status-page";

/** A back-office address that leads nowhere, inside the shell (navigation and search stay). */
export default function AdminNotFound() {
  return (
    <StatusPage
      code="Page not found"
      title="We could not find that page"
      home="/admin"
      homeLabel="Back to the dashboard"
    >
      <p>
        The address may be mistyped, or the item it pointed to was deleted. Use the navigation or the search
        at the top to find what you need.
      </p>
    </StatusPage>
  );
}
