"use client";

/** docs/api.md referencedBy counts, as a sentence list; shown before every delete. */
export function ReferencedBy({
  counts,
  testId = "referenced-by",
}: {
  counts: Record<string, number> | null | undefined;
  testId?: string;
}) {
  if (!counts)
    return (
      <p className="muted" data-testid={testId}>
        Checking what refers to it…
      </p>
    );
  const used = Object.entries(counts).filter(([, n]) => n > 0);
  if (!used.length) return <p data-testid={testId}>Nothing refers to it.</p>;
  return (
    <div data-testid={testId}>
      <p>It is referred to by:</p>
      <ul className="refs-list">
        {used.map(([kind, n]) => (
          <li key={kind}>
            {n} {labelOf(kind, n)}
          </li>
        ))}
      </ul>
    </div>
  );
}

const labels: Record<string, [string, string]> = {
  entitlements: ["entitlement", "entitlements"],
  offers: ["offer", "offers"],
  suites: ["suite", "suites"],
  planSets: ["plan set revision", "plan set revisions"],
  features: ["feature catalog entry", "feature catalog entries"],
  products: ["product", "products"],
  addOns: ["add-on", "add-ons"],
  ratingCampaigns: ["rating campaign", "rating campaigns"],
};

function labelOf(kind: string, n: number) {
  const pair = labels[kind];
  return pair ? pair[n === 1 ? 0 : 1] : kind;
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge status-${status}`}>{status}</span>;
}
