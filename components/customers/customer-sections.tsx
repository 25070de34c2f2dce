import { Children, type ReactNode } from "react";

/** A titled panel of customer 360, with an optional count beside its title. */
export function Section({ title, count, children }: { title: string; count?: number; children: ReactNode }) {
  return (
    <section className="panel" aria-label={title}>
      <div className="dash-panel-head">
        <h2>
          {title}
          {count !== undefined ? <span className="muted small"> · {count}</span> : null}
        </h2>
      </div>
      {children}
    </section>
  );
}

/**
 * A compact table of customer 360, named for screen readers by its label; with no rows, the
 * `empty` sentence stands in its place (a header row alone reads as a table still loading).
 */
export function Table({
  label,
  head,
  empty,
  children,
}: {
  label: string;
  head: string[];
  empty: string;
  children: ReactNode;
}) {
  if (Children.count(children) === 0) return <p className="muted">{empty}</p>;
  return (
    <div className="table-wrap">
      <table className="table table-compact" aria-label={label}>
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
