import { OrganizationsPanel } from "./organizations-panel";
import { UsersPanel } from "./users-panel";

/** The customers page: organizations, then users. */
export function CustomersPanels() {
  return (
    <>
      <OrganizationsPanel />
      <UsersPanel />
    </>
  );
}
