/** A timestamp as docs/api.md's ISO 8601 UTC string, or null: how every response mapper writes dates. */
export const iso = (date: Date | null | undefined): string | null => date?.toISOString() ?? null;
