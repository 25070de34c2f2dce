import type { ReactNode } from "react";
import { TopBar } from "@/components/shell/top-bar";
import { TrpcProvider } from "@/components/shell/trpc-provider";
import { requireUser } from "@/server/auth/session";

/** Every portal page: customers' users only (vendor staff are sent to the portal sign-in). */
export default async function PortalLayout({ children }: { children: ReactNode }) {
  const session = await requireUser("consumer");
  return (
    <TrpcProvider>
      <div className="shell">
        <TopBar
          home="/portal"
          product="Customer portal"
          tenantName={session.tenantName}
          userName={session.name}
          email={session.email}
          signInPage="/portal/sign-in"
        />
        <main className="content content-narrow" id="main" tabIndex={-1}>
          {children}
        </main>
      </div>
    </TrpcProvider>
  );
}
