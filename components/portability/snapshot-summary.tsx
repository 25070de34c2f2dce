import { sectionLabels, sectionNames } from "@/server/domain/portability/snapshot/sections";
import { formatDateTime } from "../ui/format";

type SnapshotHead = {
  formatVersion: string;
  exportedAt?: string;
  sourceTenantId?: string;
  scope?: string[];
  counts?: Record<string, unknown>;
  references?: Record<string, unknown>;
  warnings?: unknown[];
};

const presenceOf = (ref: unknown) => (ref as { presence?: string } | null)?.presence ?? "Unknown";

/** A catalog snapshot at a glance: items per section, where its references point, its warnings. */
export function SnapshotSummary({ snapshot, title }: { snapshot: SnapshotHead; title: string }) {
  const presence = new Map<string, number>();
  for (const ref of Object.values(snapshot.references ?? {}))
    presence.set(presenceOf(ref), (presence.get(presenceOf(ref)) ?? 0) + 1);
  const warnings = (snapshot.warnings ?? []) as { code?: string; key?: string; message?: string }[];
  return (
    <div data-testid="snapshot-summary">
      <h3>{title}</h3>
      <p className="muted small">
        Format {snapshot.formatVersion}
        {snapshot.exportedAt ? ` · exported ${formatDateTime(snapshot.exportedAt)}` : ""}
        {snapshot.sourceTenantId ? ` · from tenant ${snapshot.sourceTenantId}` : ""}
      </p>
      <div className="summary-grid">
        {sectionNames.map((section) => {
          const count = Number(snapshot.counts?.[section] ?? 0);
          return (
            <div
              key={section}
              className={`summary-cell${count ? "" : " is-zero"}`}
              data-testid={`count-${section}`}
            >
              <div className="summary-value">{count}</div>
              <div className="summary-label">{sectionLabels[section]}</div>
            </div>
          );
        })}
      </div>
      {presence.size ? (
        <p className="small">
          References: {[...presence].map(([p, n]) => `${n} ${p}`).join(" · ")}
          <span className="muted">
            {" "}
            (Explicit: selected; Dependency: included because something selected needs it; Excluded: left out,
            matched by natural key on import; Missing: no longer exists)
          </span>
        </p>
      ) : null}
      {warnings.length ? (
        <div className="alert alert-warn" role="status" data-testid="snapshot-warnings">
          <strong>
            {warnings.length} warning{warnings.length === 1 ? "" : "s"} (they never block)
          </strong>
          <ul className="warning-list">
            {warnings.slice(0, 20).map((w, i) => (
              <li key={i}>
                <code>{w.code}</code> {w.message}
              </li>
            ))}
            {warnings.length > 20 ? <li className="muted">and {warnings.length - 20} more</li> : null}
          </ul>
        </div>
      ) : (
        <p className="muted small">No warnings.</p>
      )}
    </div>
  );
}
