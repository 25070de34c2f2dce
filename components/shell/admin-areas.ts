/**
 * Every area of the back office (docs/api.md's resources), in navigation order. `arrivesWith` names
 * the work that builds an area whose screens do not exist yet; built areas have their own route.
 */
export type AdminArea = { slug: string; label: string; built: boolean; arrivesWith?: string };
export type AdminAreaGroup = { label: string; areas: AdminArea[] };

export const adminAreaGroups: AdminAreaGroup[] = [
  { label: "Overview", areas: [{ slug: "", label: "Dashboard", built: true }] },
  {
    label: "Catalog",
    areas: [
      { slug: "products", label: "Products", built: true },
      { slug: "feature-catalog", label: "Feature catalog", built: true },
      { slug: "monitored-assets", label: "Monitored assets", built: true },
      { slug: "suites", label: "Suites", built: true },
      { slug: "plan-sets", label: "Plan sets", built: true },
      { slug: "add-ons", label: "Add-ons", built: true },
      { slug: "rating-campaigns", label: "Rating campaigns", built: true },
      { slug: "tags", label: "Tags", built: true },
      { slug: "catalog-transfer/export", label: "Export catalog", built: true },
      { slug: "catalog-transfer/import", label: "Import catalog", built: true },
    ],
  },
  {
    label: "Entitlements",
    areas: [
      { slug: "offers", label: "Offers", built: true },
      { slug: "entitlements", label: "Entitlements", built: true },
      { slug: "customers", label: "Customers", built: true },
      { slug: "plan-change-requests", label: "Plan changes", built: true },
      { slug: "activation-codes", label: "Activation codes", built: true },
      { slug: "devices", label: "Devices", built: true },
      { slug: "offline-activation", label: "Offline activation", built: true },
    ],
  },
  { label: "Sessions", areas: [{ slug: "sessions", label: "Sessions", built: true }] },
  {
    label: "Metering",
    areas: [
      { slug: "usage", label: "Usage", built: true },
      { slug: "meters", label: "Meters", built: true },
    ],
  },
  { label: "Webhooks", areas: [{ slug: "webhooks", label: "Webhooks", built: true }] },
  {
    label: "Reports",
    areas: [
      { slug: "reports/revenue", label: "Revenue", built: true },
      { slug: "reports/seat-utilization", label: "Seat utilisation", built: true },
      { slug: "reports/activations", label: "Activations", built: true },
      { slug: "reports/value-delivered", label: "Value delivered", built: true },
    ],
  },
  {
    label: "Settings",
    areas: [
      { slug: "settings/clients", label: "API clients", built: true },
      { slug: "settings/users", label: "Users and roles", built: true },
      { slug: "settings/audit", label: "Audit trail", built: true },
      { slug: "api-docs", label: "API docs", built: true },
    ],
  },
];

export const adminHref = (slug: string) => (slug ? `/admin/${slug}` : "/admin");

export function findAdminArea(slug: string): AdminArea | undefined {
  return adminAreaGroups.flatMap((g) => g.areas).find((a) => a.slug === slug);
}
