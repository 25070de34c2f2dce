import Link from "next/link";

/** Where each kind of audited record opens in the back office. */
const pages: Record<string, (id: string) => string> = {
  entitlement: (id) => `/admin/entitlements/${id}`,
  offer: (id) => `/admin/offers/${id}`,
  product: (id) => `/admin/products/${id}`,
  planSet: (id) => `/admin/plan-sets/${id}`,
  suite: (id) => `/admin/suites/${id}`,
  addOn: (id) => `/admin/add-ons/${id}`,
  customerUser: (id) => `/admin/customers/users/${id}`,
  customerOrganization: (id) => `/admin/customers/organizations/${id}`,
};

/** "planSet" → "plan set". */
const kindLabel = (kind: string) => kind.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();

/** An audited record by name, linked to its page where it has one; its kind when it has no name. */
export function AuditEntityLink({ kind, id, name }: { kind: string; id: string; name: string | undefined }) {
  const href = pages[kind]?.(id);
  const label = name ?? `a ${kindLabel(kind)}`;
  return (
    <span>
      <span className="muted small">{kindLabel(kind)}</span>{" "}
      {href ? <Link href={href}>{label}</Link> : <span title={id}>{label}</span>}
    </span>
  );
}
