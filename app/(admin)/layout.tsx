import type { ReactNode } from "react";

/** The back office's visual accent applies to every page under /admin. */
export default function AdminAreaLayout({ children }: { children: ReactNode }) {
  return <div className="area-admin area-root">{children}</div>;
}
