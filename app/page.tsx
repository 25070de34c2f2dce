import Link from "next/link";
import "@/components/shell/auth-pages.css";

export default function LandingPage() {
  return (
    <main className="landing">
      <div className="landing-inner">
        <h1>Licensing</h1>
        <p className="lead">
          Licenses, entitlements and usage metering for software vendors and their customers.
        </p>
        <div className="landing-cards">
          <Link href="/admin" className="landing-card area-admin">
            <span className="landing-card-title">Back office</span>
            <span>For vendor staff: catalog, entitlements, sessions, webhooks, reports and API clients.</span>
          </Link>
          <Link href="/portal" className="landing-card area-portal">
            <span className="landing-card-title">Customer portal</span>
            <span>For your customers&apos; users: their licenses, sessions and activation codes.</span>
          </Link>
        </div>
        <p className="muted small">
          Integrating? The REST API is described at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.
        </p>
      </div>
    </main>
  );
}
