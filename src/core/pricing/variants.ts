// Which of a row's prices were in force at a request's time: a dated price change, or a provider's
// hours with other prices (an off-peak discount). The rule is the dataset's: the last variant
// whose condition holds wins, none → the row's own prices. A request without a timestamp, or an
// edited row (its variants dropped), pays the row's own prices.
import type { PriceRow, PriceVariant, VariantPrices } from "./types";

/** Seconds after midnight UTC of "HH:MM:SS[.fff](Z|±HH:MM)", or null when malformed. */
function secondsOfDay(text: string): number | null {
  const match = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2})?$/.exec(text);
  if (!match) return null;
  let seconds = Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
  const zone = match[4];
  if (zone && zone !== "Z") {
    const offset = (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60;
    seconds -= zone.startsWith("+") ? offset : -offset;
  }
  return ((seconds % 86400) + 86400) % 86400;
}

function holds(variant: PriceVariant, at: Date): boolean {
  // A variant with both conditions (hours that began on a day) holds when both do.
  if (variant.startDate !== undefined && at.getTime() < Date.parse(`${variant.startDate}T00:00:00Z`)) return false;
  if (variant.timeOfDay) {
    const start = secondsOfDay(variant.timeOfDay.start);
    const end = secondsOfDay(variant.timeOfDay.end);
    if (start === null || end === null) return false;
    const now = at.getUTCHours() * 3600 + at.getUTCMinutes() * 60 + at.getUTCSeconds();
    return end < start ? now >= start || now < end : now >= start && now < end;
  }
  return variant.startDate !== undefined;
}

/** The row's prices at `timestamp` (ISO text or epoch milliseconds), as a row. */
export function rowAt(row: PriceRow, timestamp: string | number | null | undefined): PriceRow {
  if (!row.variants?.length || timestamp === null || timestamp === undefined) return row;
  const at = new Date(timestamp);
  if (Number.isNaN(at.getTime())) return row;
  for (let index = row.variants.length - 1; index >= 0; index--) {
    const variant = row.variants[index]!;
    if (holds(variant, at)) return withPrices(row, variant.prices);
  }
  return row;
}

function withPrices(row: PriceRow, prices: VariantPrices): PriceRow {
  const { longContext: _base, ...rest } = row;
  return { ...rest, ...prices };
}
