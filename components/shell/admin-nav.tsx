"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { adminAreaGroups, adminHref, type AdminAreaGroup } from "./admin-areas";

/** The back office's side navigation: every area, the current one highlighted. */
export function AdminNav() {
  const pathname = usePathname();
  const isCurrent = (href: string) =>
    href === "/admin" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);
  return (
    <aside className="side-nav-column">
      <nav className="side-nav" aria-label="Back office">
        {adminAreaGroups.map((group) => (
          <NavGroup key={group.label} group={group} isCurrent={isCurrent} />
        ))}
      </nav>
    </aside>
  );
}

function NavGroup({ group, isCurrent }: { group: AdminAreaGroup; isCurrent: (href: string) => boolean }) {
  // A group of one area named like the group needs no heading.
  const headed = group.areas.length > 1 || group.label !== group.areas[0].label;
  return (
    <div className={`side-nav-group${headed ? "" : " side-nav-single"}`}>
      {headed ? <div className="side-nav-heading">{group.label}</div> : null}
      <ul>
        {group.areas.map((area) => {
          const href = adminHref(area.slug);
          return (
            <li key={area.slug}>
              <Link
                href={href}
                aria-current={isCurrent(href) ? "page" : undefined}
                className={area.built ? undefined : "nav-pending"}
              >
                {area.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
