// Shared helpers of the JSONL readers that keep one object per line (pi, Claude Code, Codex): parse
// a line (its text, or its UTF-8 bytes with the large texts kept as stored texts) into a plain
// object or a warning reason, and mark a bad final line as truncated (FM-GEN-2).
import type { ReaderWarning } from "../model";
import { isObject } from "../util/is-object";
import { capParsedValue, parseJsonCapped } from "../util/json-depth";
import { parseLineKeepingLargeTexts, type StoredTextKeys } from "../text/largeLiterals";
import type { TextStore } from "../text/storedText";

type ParsedLine = { value: Record<string, unknown>; note?: string } | { reason: string };

/**
 * While a file's first lines go through every agent's detector (`duringDetection`), each line is
 * parsed once and the detectors after the first read the same objects (they only look at them).
 */
let detectionParses: Map<string, ParsedLine> | null = null;

/** Runs `detect` with each first line parsed once for all the detectors it asks. */
export function duringDetection<T>(detect: () => T): T {
  if (detectionParses) return detect();
  detectionParses = new Map();
  try {
    return detect();
  } finally {
    detectionParses = null;
  }
}

/**
 * The parsed object, or the reason the line is skipped. Values nested deeper than the depth cap
 * (src/core/util/json-depth.ts) are cut; `note` then says so, for a warning on the line.
 */
export function parseObjectLine(text: string): ParsedLine {
  const known = detectionParses?.get(text);
  if (known) return known;
  const parsed = parseLine(text);
  detectionParses?.set(text, parsed);
  return parsed;
}

function parseLine(text: string): ParsedLine {
  let parsed: { value: unknown; note: string | null };
  try {
    parsed = parseJsonCapped(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { reason: `not valid JSON, line skipped (${detail})` };
  }
  if (!isObject(parsed.value)) return { reason: "not a JSON object, line skipped" };
  return parsed.note === null ? { value: parsed.value } : { value: parsed.value, note: parsed.note };
}

/**
 * `parseObjectLine` of the UTF-8 line `bytes[start, end)`, with every large string value
 * (`parseLineKeepingLargeTexts`) kept in `store` (or in its source, at `lineOffset` + their
 * place in the line, when the line's offset there is known) as a stored text: the same value
 * once those are decoded, the same reasons and notes. The depth cap applies to what JSON.parse
 * reads (the line with the large texts cut out), where a stored text is a string as in the line.
 * With `keys`, only large values of those properties are kept stored.
 */
export function parseObjectLineBytes(
  bytes: Uint8Array,
  start: number,
  end: number,
  store: TextStore,
  lineOffset?: number,
  keys?: StoredTextKeys,
): { value: Record<string, unknown>; note?: string } | { reason: string } {
  let note: string | null = null;
  let value: unknown;
  try {
    value = parseLineKeepingLargeTexts(bytes, start, end, store, (parsed) => {
      const capped = capParsedValue(parsed);
      note = capped.note;
      return capped.value;
    }, lineOffset, keys);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { reason: `not valid JSON, line skipped (${detail})` };
  }
  if (!isObject(value)) return { reason: "not a JSON object, line skipped" };
  return note === null ? { value } : { value, note };
}

/** First parsed objects of a file's first lines (blank and bad lines skipped), at most `limit`. */
export function firstObjects(firstLines: string[], limit: number): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  for (const line of firstLines) {
    if (found.length >= limit) break;
    if (line.trim() === "") continue;
    const parsed = parseObjectLine(line);
    if ("value" in parsed) found.push(parsed.value);
  }
  return found;
}

/** Renames the last warning "truncated last line" when the file's last line was the bad one. */
function markTruncatedLastLine(warnings: ReaderWarning[], lastLine: number, lastBadLine: number): void {
  if (lastLine === 0 || lastBadLine !== lastLine) return;
  const last = warnings[warnings.length - 1];
  if (last && last.line === lastLine) last.reason = `truncated last line skipped (${last.reason})`;
}

/** End-of-file warnings of a JSONL reader: an empty file, or a truncated (bad) last line. */
export function finishLineWarnings(warnings: ReaderWarning[], lastLine: number, lastBadLine: number): void {
  if (lastLine === 0) warnings.push({ line: 0, reason: "empty file: no lines to read" });
  markTruncatedLastLine(warnings, lastLine, lastBadLine);
}
