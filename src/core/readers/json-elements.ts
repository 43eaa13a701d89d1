// Splits a JSON message-list document into its elements without parsing it whole (FM-RQ-5,
// FM-GEN-2): the top-level array, or the `messages` array of a top-level object. Each element
// keeps its text and 1-based start line, so the reader parses elements one by one, reports a bad
// one by index and line, and keeps every complete element of a truncated file. Linear in the text.
import type { ReaderWarning } from "../model";

interface JsonElement {
  /** The element's JSON text (trimmed). */
  text: string;
  /** 1-based line where the element starts. */
  line: number;
}

export interface ElementScan {
  elements: JsonElement[];
  /** True when the list was the `messages` value of an object. */
  wrapped: boolean;
  warnings: ReaderWarning[];
}

function isSpace(c: string): boolean {
  return c === " " || c === "\n" || c === "\r" || c === "\t" || c === "\uFEFF";
}

/** Index just after the string starting at `start` (a quote), or text.length when unterminated. */
function skipString(text: string, start: number): number {
  for (let p = start + 1; p < text.length; p++) {
    const c = text[p];
    if (c === "\\") p++;
    else if (c === '"') return p + 1;
  }
  return text.length;
}

/**
 * End of the value starting at `start`: the index of the `,`, `]` or `}` that closes it at depth
 * 0, or text.length when the text ends inside it.
 */
function skipValue(text: string, start: number): number {
  let depth = 0;
  let p = start;
  while (p < text.length) {
    const c = text[p]!;
    if (c === '"') {
      p = skipString(text, p);
      continue;
    }
    if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      if (depth === 0) return p;
      depth--;
    } else if (c === "," && depth === 0) return p;
    p++;
  }
  return text.length;
}

/**
 * End of the element starting at `start`: just after the bracket that closes an object or array
 * (so a missing comma after it cannot swallow the next element), or, for a scalar, the index of
 * the `,`, `]` or `}` after it. -1 when the text ends inside the element.
 */
function elementEnd(text: string, start: number): number {
  const open = text[start];
  if (open !== "{" && open !== "[") {
    const end = skipValue(text, start);
    return end >= text.length ? -1 : end;
  }
  // Inside the brackets: value after value (keys are string values) until the closing bracket.
  let p = start + 1;
  for (;;) {
    p = skipValue(text, p);
    if (p >= text.length) return -1;
    if (text[p] !== ",") return p + 1;
    p++;
  }
}

/** Start of the first later line whose first non-space character opens an object; -1 if none. */
function nextObjectLine(text: string, start: number): number {
  let newline = text.indexOf("\n", start);
  while (newline >= 0) {
    let p = newline + 1;
    while (p < text.length && (text[p] === " " || text[p] === "\t" || text[p] === "\r")) p++;
    if (text[p] === "{") return p;
    newline = text.indexOf("\n", p);
  }
  return -1;
}

function skipSpace(text: string, start: number): number {
  let p = start;
  while (p < text.length && isSpace(text[p]!)) p++;
  return p;
}

/** Index of the `[` that opens the top-level object's `messages` value, or -1. */
function findMessagesArray(text: string, open: number): number {
  let p = open + 1;
  for (;;) {
    p = skipSpace(text, p);
    if (text[p] === ",") {
      p++;
      continue;
    }
    if (text[p] !== '"') return -1;
    const keyEnd = skipString(text, p);
    let key: unknown;
    try {
      key = JSON.parse(text.slice(p, keyEnd));
    } catch {
      return -1;
    }
    p = skipSpace(text, keyEnd);
    if (text[p] !== ":") return -1;
    p = skipSpace(text, p + 1);
    if (key === "messages") return text[p] === "[" ? p : -1;
    p = skipValue(text, p);
    if (p >= text.length || text[p] === "}") return -1;
  }
}

export function scanTopLevelElements(text: string): ElementScan {
  const warnings: ReaderWarning[] = [];
  const elements: JsonElement[] = [];
  let line = 1;
  let counted = 0;
  const lineAt = (position: number): number => {
    for (; counted < position; counted++) if (text.charCodeAt(counted) === 10) line++;
    return line;
  };
  const first = skipSpace(text, 0);
  let arrayOpen = -1;
  let wrapped = false;
  if (text[first] === "[") arrayOpen = first;
  else if (text[first] === "{") {
    wrapped = true;
    arrayOpen = findMessagesArray(text, first);
    if (arrayOpen < 0) warnings.push({ line: 0, reason: 'the JSON object has no "messages" array (or is cut before it)' });
  } else {
    warnings.push({ line: first < text.length ? lineAt(first) : 0, reason: "not a JSON array of messages" });
  }
  if (arrayOpen < 0) return { elements, wrapped, warnings };

  let p = arrayOpen + 1;
  for (;;) {
    p = skipSpace(text, p);
    if (p >= text.length) {
      warnings.push({ line: lineAt(text.length), reason: `the list is truncated: the file ends before its closing "]"; kept ${elements.length} complete messages` });
      break;
    }
    if (text[p] === "]") break;
    const start = p;
    const end = elementEnd(text, start);
    if (end < 0) {
      // An element never closed may be one broken line: read on from the next line that starts
      // an object (always past `start`, so the loop advances).
      const next = nextObjectLine(text, start);
      if (next > 0) {
        warnings.push({ line: lineAt(start), reason: `message [${elements.length}]: not valid JSON (never closed); skipped, reading on at the next line` });
        p = next;
        continue;
      }
      warnings.push({
        line: lineAt(start),
        reason: `message [${elements.length}]: truncated (the file ends inside it); skipped, kept ${elements.length} complete messages`,
      });
      break;
    }
    const elementText = text.slice(start, end).trim();
    if (elementText === "") {
      warnings.push({ line: lineAt(start), reason: `message [${elements.length}]: empty element (stray comma)` });
    } else {
      elements.push({ text: elementText, line: lineAt(start) });
    }
    // What follows an element: a comma, the closing bracket, or (a broken file) anything else.
    const after = text[end] === "," || text[end] === "]" || text[end] === "}" ? end : skipSpace(text, end);
    if (after >= text.length) {
      p = after;
      continue;
    }
    if (text[after] === "}") {
      warnings.push({ line: lineAt(after), reason: 'unbalanced "}" inside the list; reading stopped there' });
      break;
    }
    if (text[after] === "]") break;
    if (text[after] === ",") {
      p = after + 1;
      continue;
    }
    // No comma: the next element starts here. Always past `start`, so the loop advances.
    warnings.push({ line: lineAt(after), reason: `message [${elements.length - 1}]: no comma after it; the next message starts on this line` });
    p = after;
  }
  return { elements, wrapped, warnings };
}
