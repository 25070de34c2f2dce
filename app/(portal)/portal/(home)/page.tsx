import type { Metadata } from "next";
import type { ReactNode } from "react";
import Link from "next/link";
import { requireUser } from "@/server/auth/session";
import { MyActivationCodes } from "@/components/licensing/my-activation-codes";
import { MyLicenses } from "@/components/licensing/my-licenses";
import { MySessions } from "@/components/licensing/my-sessions";
import { MyUsage } from "@/components/metering/my-usage";

export const metadata: Metadata = { title: "Your licenses" };

const panels: { title: string; text: string; body: ReactNode }[] = [
  {
    title: "Your licenses",
    text: "The products you are entitled to use, their seats, expiry dates and plans.",
    body: <MyLicenses />,
  },
  {
    title: "Your sessions",
    text: "The devices where your licenses are in use. Release one to free its seat for another device.",
    body: <MySessions />,
  },
  {
    title: "Your usage",
    text: "What your licenses have used, per period, and the credits they have left.",
    body: <MyUsage />,
  },
  {
    title: "Your activation codes",
    text: "The codes your organisation issued to you for activating products.",
    body: <MyActivationCodes />,
  },
];

export default async function PortalHomePage() {
  const session = await requireUser("consumer");
  return (
    <>
      <div className="page-head">
        <h1>Hello, {session.name}</h1>
        <p className="muted">
          Your licenses from <strong>{session.tenantName}</strong>.{" "}
          <Link href="/portal/profile">Your profile</Link>
        </p>
      </div>
      <div className="portal-panels">
        {panels.map((panel, i) => (
          <section key={panel.title} className="panel" aria-labelledby={`portal-panel-${i}`}>
            <h2 id={`portal-panel-${i}`}>{panel.title}</h2>
            <p className="muted">{panel.text}</p>
            {panel.body}
          </section>
        ))}
      </div>
    </>
  );
}
