// A turn summary's usage (pi's field names, which every reader fills: input excludes cache reads
// and writes) as priceable counts, with the cache writes' TTL split when the reader recorded one
// (Claude Code), so the timeline, the CLI's `requests` and `prefix` price a turn the same way.
import type { RecordedUsage } from "../model";
import type { PriceableUsage } from "./types";

export function priceableOfUsage(usage: RecordedUsage): PriceableUsage {
  const priceable: PriceableUsage = { uncachedInput: usage.input, cacheRead: usage.cacheRead, cacheWrite: usage.cacheWrite, output: usage.output };
  if (usage.cacheWrite5m !== undefined) priceable.cacheWrite5m = usage.cacheWrite5m;
  if (usage.cacheWrite1h !== undefined) priceable.cacheWrite1h = usage.cacheWrite1h;
  return priceable;
}
