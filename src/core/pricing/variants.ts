// Which of a row's prices were in force at a request's time: a dated price change, or a provider's
// hours with other prices (an off-peak discount). The rule is the dataset's: the last variant
// whose condition holds wins, none → the row's own prices. A request without a timestamp, or an
// edited row (its variants dropped), pays the row's own prices. A line per turn prices each turn
// two or three times: each variant's dates and hours are read once, and the row with a variant's
// prices is made once per row and variant, not per call (rows and variants are never changed
// once made, see dataset.ts).
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

/** A variant's conditions as numbers: its first day's start (epoch ms, NaN when unreadable) and its hours (seconds of day). */
interface VariantTimes {
  startMs: number | null;
  /** Null without hours; `start` or `end` null when malformed (the variant never holds). */
  hours: { start: number | null; end: number | null } | null;
}

const variantTimes = new WeakMap<PriceVariant, VariantTimes>();

function timesOf(variant: PriceVariant): VariantTimes {
  let times = variantTimes.get(variant);
  if (times === undefined) {
    times = {
      startMs: variant.startDate !== undefined ? Date.parse(`${variant.startDate}T00:00:00Z`) : null,
      hours: variant.timeOfDay ? { start: secondsOfDay(variant.timeOfDay.start), end: secondsOfDay(variant.timeOfDay.end) } : null,
    };
    variantTimes.set(variant, times);
  }
  return times;
}

function holds(variant: PriceVariant, at: Date): boolean {
  const { startMs, hours } = timesOf(variant);
  // A variant with both conditions (hours that began on a day) holds when both do.
  if (startMs !== null && at.getTime() < startMs) return false;
  if (hours) {
    const { start, end } = hours;
    if (start === null || end === null) return false;
    const now = at.getUTCHours() * 3600 + at.getUTCMinutes() * 60 + at.getUTCSeconds();
    return end < start ? now >= start || now < end : now >= start && now < end;
  }
  return startMs !== null;
}

/** The row's prices at `timestamp` (ISO text or epoch milliseconds), as a row. */
export function rowAt(row: PriceRow, timestamp: string | number | null | undefined): PriceRow {
  if (!row.variants?.length || timestamp === null || timestamp === undefined) return row;
  const at = new Date(timestamp);
  if (Number.isNaN(at.getTime())) return row;
  for (let index = row.variants.length - 1; index >= 0; index--) {
    const variant = row.variants[index]!;
    if (holds(variant, at)) return withPrices(row, variant);
  }
  return row;
}

/** The row with each variant's prices, by variant, with the row it was made from. */
const variantRows = new WeakMap<PriceVariant, { row: PriceRow; priced: PriceRow }>();

function withPrices(row: PriceRow, variant: PriceVariant): PriceRow {
  const made = variantRows.get(variant);
  if (made !== undefined && made.row === row) return made.priced;
  const { longContext: _base, ...rest } = row;
  const priced: PriceRow = { ...rest, ...variant.prices };
  variantRows.set(variant, { row, priced });
  return priced;
}
