/**
 * "Export CSV" beside a list: the list's rows as filtered and sorted now, streamed by
 * GET /admin/export/{list} (server/domain/operations/list-exports.ts names the lists).
 */
export function ExportCsvLink({
  list,
  query,
  pending = false,
  extra = {},
  label = "Export CSV",
  testId = `export-${list}`,
}: {
  list: string;
  query: { filter?: string; sortOrder?: string };
  /** A typed filter not yet applied: the link (disabled meanwhile) would export the rows without it. */
  pending?: boolean;
  extra?: Record<string, string | number | boolean | undefined>;
  /** Another wording, for a second export beside the list's ("Export selection"). */
  label?: string;
  testId?: string;
}) {
  const params = new URLSearchParams();
  if (query.filter) params.set("filter", query.filter);
  if (query.sortOrder) params.set("sortOrder", query.sortOrder);
  for (const [name, value] of Object.entries(extra))
    if (value !== undefined && value !== false && value !== "") params.set(name, String(value));
  const qs = params.toString();
  return (
    <a
      className="btn btn-small export-csv"
      href={`/admin/export/${list}${qs ? `?${qs}` : ""}`}
      aria-disabled={pending || undefined}
      onClick={(e) => {
        if (pending) e.preventDefault();
      }}
      download
      data-testid={testId}
    >
      {label}
    </a>
  );
}
