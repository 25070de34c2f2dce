import type { ReactNode } from "react";
import { AdminNav } from "@/components/shell/admin-nav";
import { TopBar } from "@/components/shell/top-bar";
import { TrpcProvider } from "@/components/shell/trpc-provider";
import { GlobalSearch } from "@/components/operations/global-search";
import { requireUser } from "@/server/auth/session";

/** Every back-office page: vendor staff only (a consumer is sent to the staff sign-in). */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const session = await requireUser("staff");
  return (
    <TrpcProvider>
      <div className="shell">
        <TopBar
          home="/admin"
          product="Back office"
          tenantName={session.tenantName}
          userName={session.name}
          email={session.email}
          signInPage="/admin/sign-in"
          search={<GlobalSearch />}
        />
        <div className="shell-body">
          <AdminNav />
          <main className="content" id="main" tabIndex={-1}>
            {children}
          </main>
        </div>
      </div>
    </TrpcProvider>
  );
}
