/** The UI's door to the one formatter (server/core/format.ts), shared with charts and CSV exports. */
export {
  csvDate,
  csvDecimal,
  formatCompact,
  formatCount,
  formatCountOf,
  formatDate,
  formatDateTime,
  formatMoney,
  formatMonth,
  formatPercent,
  formatQuantity,
  formatRelative,
} from "@/server/core/format";
