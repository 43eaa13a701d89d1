// A cap on how deeply parsed user data may nest. The stages after the readers walk values with
// ordinary recursion (serializers, cache-marker removal, redaction, canonical JSON); a 10,000-deep
// array in a tool result would overflow their stack. The readers cut anything deeper than
// MAX_JSON_DEPTH here, with a warning, so every later walk is bounded. The functions below must not
// overflow: the text scan and the cut are iterative, the check of a parsed value stops recursing
// one level past the limit.

/** Deeper than any structure an agent writes (tool arguments nest a few levels), far below stack limits. */
export const MAX_JSON_DEPTH = 128;

/** Placeholder left where a too-deep value was cut. */
export const DEEP_VALUE_MARKER = `[nested more than ${MAX_JSON_DEPTH} levels deep: left out]`;

/** True when the JSON text nests more than `limit` levels (brackets outside strings; one pass). */
export function nestsDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  // Quick exit: a text with fewer brackets than the limit cannot nest that deep.
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92 /* \ */) i++;
      else if (ch === 34 /* " */) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 123 /* { */ || ch === 91 /* [ */) {
      if (++depth > limit) return true;
    } else if (ch === 125 /* } */ || ch === 93 /* ] */) depth--;
  }
  return false;
}

/**
 * `value` with every array or object below depth `limit` replaced by DEEP_VALUE_MARKER (copies
 * along the way; the input is not changed). `cut` counts the replaced values.
 */
export function cutDeepValues(value: unknown, limit = MAX_JSON_DEPTH): { value: unknown; cut: number } {
  if (typeof value !== "object" || value === null) return { value, cut: 0 };
  let cut = 0;
  const root: { v: unknown } = { v: null };
  // Each frame: the source container, where its copy goes, and its depth.
  const stack: { source: object; assign: (copy: unknown) => void; depth: number }[] = [{ source: value, assign: (copy) => (root.v = copy), depth: 1 }];
  while (stack.length > 0) {
    const { source, assign, depth } = stack.pop()!;
    if (depth > limit) {
      cut++;
      assign(DEEP_VALUE_MARKER);
      continue;
    }
    if (Array.isArray(source)) {
      const copy: unknown[] = new Array(source.length);
      assign(copy);
      source.forEach((item, i) => {
        if (typeof item === "object" && item !== null) stack.push({ source: item, assign: (c) => (copy[i] = c), depth: depth + 1 });
        else copy[i] = item;
      });
    } else {
      const copy: Record<string, unknown> = {};
      assign(copy);
      for (const [key, item] of Object.entries(source)) {
        // defineProperty keeps a "__proto__" key an own data property, as JSON.parse made it.
        if (typeof item === "object" && item !== null) {
          stack.push({ source: item, assign: (c) => Object.defineProperty(copy, key, { value: c, enumerable: true, writable: true, configurable: true }), depth: depth + 1 });
        } else Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true });
      }
    }
  }
  return { value: root.v, cut };
}

/**
 * True when a parsed value holds a container deeper than `limit` (the root is depth 1). Walks
 * containers only, never string characters, and stops at the first one past the limit, so its
 * recursion is at most `limit + 1` frames deep whatever the value: far cheaper than scanning the
 * text (`nestsDeeperThan`) for the long-string lines sessions are made of.
 */
export function valueNestsDeeperThan(value: unknown, limit = MAX_JSON_DEPTH, depth = 1): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (depth > limit) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === "object" && item !== null && valueNestsDeeperThan(item, limit, depth + 1)) return true;
    }
    return false;
  }
  // Own keys without the list of them `Object.keys` would make (every line's record is walked).
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const item: unknown = (value as Record<string, unknown>)[key];
    if (typeof item === "object" && item !== null && valueNestsDeeperThan(item, limit, depth + 1)) return true;
  }
  return false;
}

/** Words of a warning for `cut` values left out (the place is the caller's). */
function deepValuesNote(cut: number): string {
  return `${cut} value${cut === 1 ? "" : "s"} nested more than ${MAX_JSON_DEPTH} levels deep left out`;
}

/** A parsed value with the depth cap applied: the same value when nothing is too deep, else a cut copy and a note. */
export function capParsedValue(parsed: unknown): { value: unknown; note: string | null } {
  if (!valueNestsDeeperThan(parsed)) return { value: parsed, note: null };
  const { value, cut } = cutDeepValues(parsed);
  return { value, note: deepValuesNote(cut) };
}

/**
 * JSON.parse with the depth cap: the parsed value, and a warning text when something was cut.
 * JSON.parse itself does not recurse on the stack (V8, SpiderMonkey and JavaScriptCore parse
 * arbitrarily deep text), so the check runs on the parsed value.
 */
export function parseJsonCapped(text: string): { value: unknown; note: string | null } {
  const value = JSON.parse(text) as unknown;
  // Nesting deeper than the cap takes an opening and a closing bracket a level: a shorter text
  // (most lines of a session) cannot, and its value need not be walked.
  if (text.length < 2 * (MAX_JSON_DEPTH + 1)) return { value, note: null };
  return capParsedValue(value);
}

/**
 * JSON.parse for JSON held inside a value the readers already checked (tool-call arguments kept
 * as a string, a column's JSON text): the pipelines walk what it returns, so it is cut at the same
 * depth. Throws like JSON.parse on text that is not JSON.
 */
export function parseNestedJson(text: string): unknown {
  return parseJsonCapped(text).value;
}

/**
 * A JSON text with the depth cap applied: the same text when it nests no deeper than the cap (or
 * is not JSON), else the cut value serialised again, with a note. For JSON kept as a string inside
 * a session (tool-call arguments), so every later parse of it is bounded too.
 */
export function capJsonText(text: string): { text: string; note: string | null } {
  if (!nestsDeeperThan(text)) return { text, note: null };
  let parsed: { value: unknown; note: string | null };
  try {
    parsed = parseJsonCapped(text);
  } catch {
    return { text, note: null };
  }
  return { text: JSON.stringify(parsed.value), note: parsed.note };
}
