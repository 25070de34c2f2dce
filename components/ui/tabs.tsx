"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import type { ReactNode } from "react";
import "./tabs.css";

export type Tab = { id: string; label: string; render: () => ReactNode };

/**
 * Tabs of a detail page, the open one kept in the URL (`?tab=`) so it survives a reload and can be
 * linked to. Only the open tab renders, so its queries run only when it is shown.
 */
export function Tabs({ label, tabs }: { label: string; tabs: Tab[] }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const current = tabs.find((t) => t.id === params.get("tab")) ?? tabs[0];
  function open(id: string) {
    const next = new URLSearchParams(params.toString());
    if (id === tabs[0].id) next.delete("tab");
    else next.set("tab", id);
    const query = next.toString();
    router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
  }
  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tab-list">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={t.id === current.id}
            aria-controls={`tabpanel-${t.id}`}
            className="tab"
            onClick={() => open(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`tabpanel-${current.id}`} aria-labelledby={`tab-${current.id}`}>
        {current.render()}
      </div>
    </div>
  );
}
