// What is removed from a user message before its language is read (RL-2, RL-3, RL-4): fenced
// code, inline code, tagged blocks, URLs and link targets, quoted lines, quoted spans and pasted
// log lines, in that order. Every step is linear in the text length; the tag strip counts the
// characters it visits so tests can bound it (RL-4: at most 3 × length).
import type { ReplyLanguageOptions } from "./options";

/** Result of the tag strip: the text without well-formed tagged blocks, and its visit count. */
export interface TagStripResult {
  text: string;
  /** Characters read by the pass (scan + copy); RL-4 bounds it by 3 × input length. */
  visited: number;
  /** Number of blocks removed. */
  removedBlocks: number;
}

export interface StripResult {
  text: string;
  /** Visit count of the tag pass (RL-4). */
  tagPassVisited: number;
}

const FENCE_LINE = /^[ \t]*(`{3,}|~{3,})/;

/** (1) Fenced code: a fence line up to the matching closing fence or the end of the text. */
export function removeFencedCode(text: string): string {
  if (text.indexOf("```") === -1 && text.indexOf("~~~") === -1) return text;
  const lines = text.split("\n");
  const kept: string[] = [];
  let fence: string | null = null;
  for (const line of lines) {
    if (fence === null) {
      const open = FENCE_LINE.exec(line);
      if (open && open[1] !== undefined) fence = open[1];
      else kept.push(line);
      continue;
    }
    // Closing fence: same character, at least as long, nothing else on the line.
    const trimmed = line.trim();
    const fenceChar = fence.charAt(0);
    let n = 0;
    while (n < trimmed.length && trimmed.charAt(n) === fenceChar) n++;
    if (n >= fence.length && n === trimmed.length) fence = null;
  }
  return kept.join("\n");
}

/** (2) Inline code spans: text between single backticks on one line. */
function removeInlineCode(text: string): string {
  if (text.indexOf("`") === -1) return text;
  return text
    .split("\n")
    .map((line) => {
      let out = "";
      let i = 0;
      for (;;) {
        const open = line.indexOf("`", i);
        if (open === -1) break;
        const close = line.indexOf("`", open + 1);
        if (close === -1) break; // no later backtick on this line: nothing more pairs
        out += line.slice(i, open);
        i = close + 1;
      }
      return out + line.slice(i);
    })
    .join("\n");
}

interface Tag {
  name: string;
  start: number;
  /** Index just past `>`. */
  end: number;
}

function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57) || c === 95 || c === 45;
}
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12;
}

/**
 * (3) Tagged blocks: a well-formed pair `<name …>…</name>` (name `[A-Za-z][A-Za-z0-9_-]*`) is
 * removed; unclosed or mismatched tags stay. One scan collects opening and closing tags (an
 * attribute scan stops at `<`, so no character is scanned twice), then each opening tag is
 * matched to the next closing tag of its name with a per-name monotonic pointer (RL-4).
 */
export function stripTaggedBlocks(text: string): TagStripResult {
  let visited = 0;
  const openers: Tag[] = [];
  const closersByName = new Map<string, Tag[]>();
  const n = text.length;
  let i = 0;
  // Index already read by the tag parser; the main loop does not count it a second time.
  let seen = -1;
  while (i < n) {
    if (i !== seen) visited++;
    if (text.charCodeAt(i) !== 60 /* < */) {
      i++;
      continue;
    }
    let j = i + 1;
    const closing = j < n && text.charCodeAt(j) === 47; /* / */
    if (j < n) visited++;
    if (closing) {
      j++;
      if (j < n) visited++;
    }
    if (j >= n || !isNameStart(text.charCodeAt(j))) {
      // Not a tag; resume at j, which was read already.
      seen = j;
      i = Math.max(j, i + 1);
      continue;
    }
    const nameStart = j;
    j++;
    while (j < n) {
      visited++;
      if (!isNameChar(text.charCodeAt(j))) break;
      j++;
    }
    const name = text.slice(nameStart, j);
    if (j >= n) break;
    const c = text.charCodeAt(j);
    if (c === 62 /* > */) {
      const tag = { name, start: i, end: j + 1 };
      if (closing) {
        const list = closersByName.get(name);
        if (list) list.push(tag);
        else closersByName.set(name, [tag]);
      } else openers.push(tag);
      i = j + 1;
      continue;
    }
    if (!closing && isSpace(c)) {
      // Attributes: up to `>`; a `<` or the end of the text means "not a tag".
      j++;
      while (j < n) {
        visited++;
        const a = text.charCodeAt(j);
        if (a === 62 || a === 60) break;
        j++;
      }
      if (j < n && text.charCodeAt(j) === 62) {
        openers.push({ name, start: i, end: j + 1 });
        i = j + 1;
        continue;
      }
    }
    seen = j;
    i = j;
  }

  if (openers.length === 0 || closersByName.size === 0) {
    return { text, visited, removedBlocks: 0 };
  }
  const pointer = new Map<string, number>();
  const removed: [number, number][] = [];
  let cursor = 0;
  for (const open of openers) {
    if (open.start < cursor) continue; // inside a block already removed
    const closers = closersByName.get(open.name);
    if (!closers) continue;
    let p = pointer.get(open.name) ?? 0;
    while (p < closers.length && (closers[p] as Tag).start < open.end) p++;
    pointer.set(open.name, p);
    const close = closers[p];
    if (!close) continue;
    removed.push([open.start, close.end]);
    cursor = close.end;
    pointer.set(open.name, p + 1);
  }
  if (removed.length === 0) return { text, visited, removedBlocks: 0 };
  let out = "";
  let from = 0;
  for (const [start, end] of removed) {
    out += text.slice(from, start);
    visited += start - from;
    from = end;
  }
  out += text.slice(from);
  visited += n - from;
  return { text: out, visited, removedBlocks: removed.length };
}

/** (4) Markdown link targets `](target)` (the link text stays) and bare URLs `scheme://…`. */
function removeUrls(text: string): string {
  let out = text;
  if (out.indexOf("](") !== -1) {
    let result = "";
    let i = 0;
    for (;;) {
      const at = out.indexOf("](", i);
      if (at === -1) break;
      // Target: up to `)` with no whitespace in between.
      let j = at + 2;
      while (j < out.length) {
        const c = out.charCodeAt(j);
        if (c === 41 /* ) */ || isSpace(c)) break;
        j++;
      }
      if (j < out.length && out.charCodeAt(j) === 41) {
        result += out.slice(i, at + 1);
        i = j + 1;
      } else {
        result += out.slice(i, j);
        i = j;
      }
    }
    out = result + out.slice(i);
  }
  if (out.indexOf("://") === -1) return out;
  let result = "";
  let i = 0;
  let searchFrom = 0;
  for (;;) {
    const at = out.indexOf("://", searchFrom);
    if (at === -1) break;
    // Scheme: letters, digits, + . - back to a letter; never before the last cut.
    let s = at;
    while (s > i && /[A-Za-z0-9+.-]/.test(out.charAt(s - 1))) s--;
    while (s < at && !/[A-Za-z]/.test(out.charAt(s))) s++;
    let e = at + 3;
    while (e < out.length && !isSpace(out.charCodeAt(e))) e++;
    if (s === at) {
      searchFrom = at + 3;
      continue;
    }
    result += out.slice(i, s);
    i = e;
    searchFrom = e;
  }
  return result + out.slice(i);
}

/** (5) Quoted lines: first non-space character `>`. */
function removeQuotedLines(text: string): string {
  if (text.indexOf(">") === -1) return text;
  return text
    .split("\n")
    .map((line) => (line.trimStart().startsWith(">") ? "" : line))
    .join("\n");
}

/** (6) Quoted spans between paired delimiters; an opener without a closer stays as text. */
function removeQuotedSpans(text: string, options: ReplyLanguageOptions): string {
  const pairs = options.quotedSpanPairs;
  const openers = new Map<string, string>();
  for (const [open, close] of pairs) openers.set(open, close);
  const removeIn = (segment: string): string => {
    // Per closer: once a search for it failed, no later opener of that kind can pair.
    const exhausted = new Set<string>();
    let out = "";
    let i = 0;
    let k = 0;
    while (k < segment.length) {
      const ch = segment.charAt(k);
      const close = openers.get(ch);
      if (close === undefined || exhausted.has(close)) {
        k++;
        continue;
      }
      const end = segment.indexOf(close, k + 1);
      if (end === -1) {
        exhausted.add(close);
        k++;
        continue;
      }
      out += segment.slice(i, k);
      i = end + close.length;
      k = i;
    }
    return out + segment.slice(i);
  };
  if (options.quotedSpanScope === "text") return removeIn(text);
  return text.split("\n").map(removeIn).join("\n");
}

/** RL-3: a pasted log or error line. */
export function isLogLine(line: string, options: ReplyLanguageOptions): boolean {
  const trimmed = line.trimStart();
  if (trimmed === "") return false;
  for (const pattern of options.logLinePatterns) {
    pattern.lastIndex = 0;
    if (pattern.test(trimmed)) return true;
  }
  return false;
}

/** (7) Pasted log lines (RL-3). */
function removeLogLines(text: string, options: ReplyLanguageOptions): string {
  return text
    .split("\n")
    .map((line) => (isLogLine(line, options) ? "" : line))
    .join("\n");
}

/** RL-2: all steps in order. Line structure is kept (removed lines become empty). */
export function stripForReading(text: string, options: ReplyLanguageOptions): StripResult {
  let out = removeFencedCode(text);
  out = removeInlineCode(out);
  const tags = stripTaggedBlocks(out);
  out = removeUrls(tags.text);
  out = removeQuotedLines(out);
  out = removeQuotedSpans(out, options);
  out = removeLogLines(out, options);
  return { text: out, tagPassVisited: tags.visited };
}
