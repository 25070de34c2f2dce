const escapeLabel = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
const labels = (pairs: Record<string, string>) =>
  `{${Object.entries(pairs)
    .map(([k, v]) => `${k}="${escapeLabel(v)}"`)
    .join(",")}}`;
const num = (n: number) => (Number.isFinite(n) ? String(n) : n > 0 ? "+Inf" : "NaN");

/** A gauge or counter family for the exposition: help, type and samples. */
export type Family = {
  name: string;
  help: string;
  type: "counter" | "gauge" | "histogram";
  samples: { suffix?: string; labels?: Record<string, string>; value: number }[];
};

/** Prometheus text exposition format 0.0.4. */
export function renderExposition(families: Family[]): string {
  const lines: string[] = [];
  for (const f of families) {
    lines.push(`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples)
      lines.push(`${f.name}${s.suffix ?? ""}${s.labels ? labels(s.labels) : ""} ${num(s.value)}`);
  }
  return `${lines.join("\n")}\n`;
}
