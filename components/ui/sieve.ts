/** Escapes a value for a Sieve filter term: `,` `|` and `\` are taken literally after a backslash. */
export function sieveValue(text: string): string {
  return text.replace(/[\\,|]/g, (ch) => `\\${ch}`);
}

/** Joins Sieve terms with "," (AND), skipping empty ones; undefined when nothing filters. */
export function sieveFilter(...terms: (string | false | null | undefined)[]): string | undefined {
  const kept = terms.filter((t): t is string => !!t);
  return kept.length ? kept.join(",") : undefined;
}
