import type { Metadata } from "next";
import { StaffUsersTable } from "@/components/identity/staff-users-table";

export const metadata: Metadata = { title: "Users and roles" };

export default function StaffUsersPage() {
  return (
    <>
      <div className="page-head">
        <h1>Users and roles</h1>
        <p className="muted">
          Staff who use this back office and what their role lets them do. A role change applies at the
          user&apos;s next click; a disabled user is signed out at once.
        </p>
      </div>
      <StaffUsersTable />
    </>
  );
}
