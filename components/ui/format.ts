const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });

/** A timestamp for tables; "—" when absent. */
export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : "—";
}

const date = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium" });

/** A day for tables, the full timestamp left to a tooltip; "—" when absent. */
export function formatDate(iso: string | null | undefined): string {
  return iso ? date.format(new Date(iso)) : "—";
}
