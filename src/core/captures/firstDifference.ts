// Where a rebuilt request body first departs from the captured one, for `verify` and the app:
// the first differing byte of the two bodies serialised alike (JSON.stringify with every object's
// keys sorted: key order is not compared, Codex sends `client_metadata` in hash-map order), the
// part of the request it is in, in the words of the wire shapes (system, tools, message N block
// M, a parameter), and a few lines either side of it in the pretty-printed bodies.
import { differingPaths, sortedJson, sortKeysDeep } from "./diff";

export interface BodyDifference {
  /** UTF-8 bytes the two compact sorted bodies share before the first difference. */
  offset: number;
  /** The first differing JSON path ("$.messages[4].content[1].text"). */
  path: string;
  /** That path in words: "system", "tools (tool 3)", "message 5, block 2", "parameter max_tokens". */
  part: string;
  /** 1-based line of the first difference in the pretty-printed bodies. */
  line: number;
  /** The pretty-printed lines around it, numbered from `firstLine`. */
  firstLine: number;
  rebuilt: string[];
  wire: string[];
}

const CONTEXT_LINES = 3;
/** Lines are clipped to this many characters (a system prompt is one line); the differing one around its first difference. */
const LINE_CHARS = 240;

function clip(text: string, column: number): string {
  if (text.length <= LINE_CHARS) return text;
  const start = Math.max(0, Math.min(column - LINE_CHARS / 2, text.length - LINE_CHARS));
  return `${start > 0 ? "…" : ""}${text.slice(start, start + LINE_CHARS)}${start + LINE_CHARS < text.length ? "…" : ""}`;
}

/** UTF-8 length of a string (the core has no TextEncoder). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function commonPrefix(a: string, b: string): number {
  const end = Math.min(a.length, b.length);
  let i = 0;
  while (i < end && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** The part of a request a JSON path is in, in the wire shapes' terms. */
export function partOfPath(path: string): string {
  const indices = (rest: string) => [...rest.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]) + 1);
  const top = /^\$(?:\.([A-Za-z_$][\w$]*)|\["([^"]*)"\])?(.*)$/.exec(path);
  const key = top?.[1] ?? top?.[2];
  const rest = top?.[3] ?? "";
  if (key === undefined) return "the whole body";
  const [n, m] = indices(rest);
  if (key === "system" || key === "instructions" || key === "systemInstruction") return n ? `system (block ${n})` : "system";
  if (key === "tools") return n ? `tools (tool ${n})` : "tools";
  if (key === "messages" || key === "input" || key === "contents") {
    const noun = key === "input" ? "input item" : "message";
    if (n === undefined) return `${key} (their number)`;
    return m === undefined ? `${noun} ${n}` : `${noun} ${n}, ${key === "contents" ? "part" : "block"} ${m}`;
  }
  return `parameter ${key}`;
}

/** The first difference of two bodies, or null when they are equal (under sorted keys). */
export function firstDifference(rebuilt: unknown, wire: unknown): BodyDifference | null {
  const compactRebuilt = sortedJson(rebuilt);
  const compactWire = sortedJson(wire);
  if (compactRebuilt === compactWire) return null;
  const offset = utf8Length(compactRebuilt.slice(0, commonPrefix(compactRebuilt, compactWire)));
  const prettyRebuilt = JSON.stringify(sortKeysDeep(rebuilt), null, 2) ?? "";
  const prettyWire = JSON.stringify(sortKeysDeep(wire), null, 2) ?? "";
  const at = commonPrefix(prettyRebuilt, prettyWire);
  const line = prettyRebuilt.slice(0, at).split("\n").length;
  const firstLine = Math.max(1, line - CONTEXT_LINES);
  const column = at - (prettyRebuilt.lastIndexOf("\n", at - 1) + 1);
  const around = (text: string) =>
    text
      .split("\n")
      .slice(firstLine - 1, line + CONTEXT_LINES)
      .map((item, i) => clip(item, firstLine + i === line ? column : 0));
  const path = differingPaths(rebuilt, wire)[0] ?? "$";
  return { offset, path, part: partOfPath(path), line, firstLine, rebuilt: around(prettyRebuilt), wire: around(prettyWire) };
}
