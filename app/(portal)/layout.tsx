import type { ReactNode } from "react";

/** The portal's visual accent applies to every page under /portal. */
export default function PortalAreaLayout({ children }: { children: ReactNode }) {
  return <div className="area-portal area-root">{children}</div>;
}
