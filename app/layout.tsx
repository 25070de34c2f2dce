import type { Metadata, Viewport } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { HydrationMark } from "@/components/shell/hydration-mark";
import "./globals.css";
import "@/components/ui/form/form.css";
import "@/components/shell/shell.css";

export const metadata: Metadata = {
  title: { default: "Licensing", template: "%s · Licensing" },
  description: "Software licensing and metering: back office and customer portal.",
  // public/: the same icon for the back office and the portal (both layouts sit under this one).
  icons: {
    icon: [
      { url: "/icon.svg", type: "image/svg+xml" },
      { url: "/favicon.ico", sizes: "32x32" },
    ],
  },
  robots: { index: false, follow: false },
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request, so Next.js can stamp the request's CSP nonce (proxy.ts) on its scripts.
  await connection();
  return (
    <html lang="en">
      <body>
        {children}
        <HydrationMark />
      </body>
    </html>
  );
}
