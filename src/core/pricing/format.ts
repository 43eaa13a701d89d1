// Dollars in words for the UI and the CLI's text: sub-cent amounts keep two significant digits
// ($0.0042), amounts from a cent up show cents ($0.12, $3.40); unknown is never "$0.00".
import type { PriceStatus } from "./types";

export function formatDollars(dollars: number): string {
  if (dollars === 0) return "$0";
  const abs = Math.abs(dollars);
  const sign = dollars < 0 ? "-" : "";
  if (abs >= 0.01) return `${sign}$${abs.toFixed(2)}`;
  const decimals = Math.min(12, Math.ceil(-Math.log10(abs)) + 1);
  return `${sign}$${abs.toFixed(decimals)}`;
}

/** "$0.0042", "≥ $0.12 (partly priced)", "not priced". */
export function formatPriced(priced: { status: PriceStatus; dollars: number | null }): string {
  if (priced.status === "not priced" || priced.dollars === null) return "not priced";
  if (priced.status === "partly priced") return `≥ ${formatDollars(priced.dollars)} (partly priced)`;
  return formatDollars(priced.dollars);
}
