import type { Option } from "./fields";

/** A row of a row editor: each cell as typed. */
export type Row = Record<string, string>;

/** One column of a row editor: a text box, a decimal box or a select, named per row ("Tier 2 start"). */
export type RowColumn<R extends Row> = {
  key: keyof R & string;
  header: string;
  /** The cell's name after the row's ("start" → "Tier 2 start"): its aria-label and its sentences' subject. */
  cell: string;
  kind?: "text" | "decimal" | "select";
  options?: readonly Option[] | ((row: R) => readonly Option[]);
  disabled?: (row: R) => boolean;
  placeholder?: string;
  /** The header's tooltip, for a rule the column follows ("Blank: open-ended"). */
  title?: string;
  wide?: boolean;
  /** What else changes when this cell does (a policy that drops its funding balance). */
  onSet?: (row: R, value: string) => Partial<R>;
};

/** The cell label of row `i` (0-based): "Tier 2 start". */
export const cellLabel = (rowName: string, i: number, cell: string) => `${rowName} ${i + 1} ${cell}`;

/** The rows with one cell of row `i` set, and whatever that column changes with it. */
export function withCell<R extends Row>(rows: R[], i: number, column: RowColumn<R>, value: string): R[] {
  return rows.map((r, j) => (j === i ? { ...r, [column.key]: value, ...column.onSet?.(r, value) } : r));
}
