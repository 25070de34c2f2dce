import type { ReactNode } from "react";

/** "leaseTime" → "Lease time": a stored field name as a label. */
export function labelOf(field: string): string {
  const words = field.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A stored value as plain text: yes/no, "none" for null, lists joined. */
export function plainValue(value: unknown): ReactNode {
  if (value === null || value === undefined || value === "") return <span className="muted">none</span>;
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value))
    return value.length ? value.map(String).join(", ") : <span className="muted">none</span>;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** A titled group of read-only facts: label and value pairs. */
export function FactGroup({ title, facts }: { title: string; facts: [string, ReactNode][] }) {
  const id = `facts-${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  return (
    <section className="panel fact-group" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <dl className="facts">
        {facts.map(([label, value]) => (
          <div key={label} style={{ display: "contents" }}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Every field of a stored JSON policy, labelled. */
export function policyFacts(policy: Record<string, unknown> | null): [string, ReactNode][] {
  if (!policy)
    return [
      [
        "Set",
        <span key="none" className="muted">
          not set
        </span>,
      ],
    ];
  return Object.entries(policy).map(([k, v]) => [labelOf(k), plainValue(v)]);
}
