const tone: Record<string, string> = {
  None: "badge badge-ok",
  Low: "badge",
  Medium: "badge",
  High: "badge badge-danger",
  Critical: "badge badge-danger",
};

/** An overage severity (quotaUsageLevel), least to most severe: None, Low, Medium, High, Critical. */
export function SeverityBadge({ severity, title }: { severity: string; title?: string }) {
  return (
    <span className={tone[severity] ?? "badge badge-muted"} title={title} data-testid="severity">
      {severity}
    </span>
  );
}
