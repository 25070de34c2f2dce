import type { Metadata } from "next";
import { requireUser } from "@/server/auth/session";
import { MyActivationCodes } from "@/components/licensing/my-activation-codes";

export const metadata: Metadata = { title: "Your licenses" };

const panels = [
  { title: "Your licenses", text: "The products you are entitled to use, their features and expiry dates." },
  { title: "Your sessions", text: "The devices where your licenses are in use, with a way to release a seat." },
  { title: "Your activation codes", text: "The codes your organisation issued to you for activating products." },
];

export default async function PortalHomePage() {
  const session = await requireUser("consumer");
  return (
    <>
      <div className="page-head">
        <h1>Hello, {session.name}</h1>
        <p className="muted">
          Your licenses from <strong>{session.tenantName}</strong>.
        </p>
      </div>
      <div className="portal-panels">
        {panels.map((panel, i) => (
          <section key={panel.title} className="panel" aria-labelledby={`portal-panel-${i}`}>
            <h2 id={`portal-panel-${i}`}>{panel.title}</h2>
            <p className="muted">{panel.text}</p>
            {panel.title === "Your activation codes" ? (
              <MyActivationCodes />
            ) : (
              <p className="panel-note">Not available yet: this arrives with the licensing work.</p>
            )}
          </section>
        ))}
      </div>
    </>
  );
}
