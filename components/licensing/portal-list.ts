/** Layout of the portal panels' lists (licenses, sessions, codes): stacked items, left-aligned lines. */
export const portalList = {
  listStyle: "none",
  padding: 0,
  margin: 0,
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr)",
  gap: "0.75rem",
} as const;
export const portalItem = {
  borderTop: "1px solid var(--border)",
  paddingTop: "0.6rem",
  display: "grid",
  // One column no wider than the panel: a wide part (the plans compared) scrolls in its own box.
  gridTemplateColumns: "minmax(0, 1fr)",
  gap: "0.25rem",
  minWidth: 0,
  overflowWrap: "anywhere",
} as const;
/** A line of a portal item: its parts side by side. */
export const portalLine = { display: "flex", flexWrap: "wrap", alignItems: "center", gap: "0.4rem" } as const;
