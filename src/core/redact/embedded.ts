// Secrets a pattern cannot see in a string as it stands, found by reading the string another way:
//   - a string that is itself JSON (tool-call arguments in the OpenAI shapes, a JSON tool result):
//     its quotes are escaped (`{\"password\":\"…\"}`), so key-shaped patterns miss it. It is parsed
//     and walked like any JSON value; each secret found is masked where its escaped text stands.
//   - a base64 run that decodes to text (a base64-wrapped `.env` line): the decoded text is scanned
//     and the whole run is masked when it holds a secret.
// Both are bounded: strings above MAX_EMBEDDED_CHARS are not parsed, base64 runs above
// MAX_BASE64_RUN are not decoded, and embedded JSON inside embedded JSON stops at MAX_NESTING.
import { gunzipHead, isGzip } from "./gunzip-head";
import { findSecrets } from "./find";
import type { SecretMatch, SecretPattern } from "./types";
import { utf8Decode } from "../util/utf8";

const MAX_EMBEDDED_CHARS = 4 * 1024 * 1024;
const MAX_BASE64_RUN = 1024 * 1024;
/** Shortest base64 run decoded: 24 characters are 18 bytes, shorter than any key with its name. */
const MIN_BASE64_RUN = 24;
const MAX_NESTING = 4;

const BASE64_SECRET_KIND = "base64-text-secret";
const BASE64_SECRET_LABEL = "Secret inside base64-encoded text";

/** A secret found inside a parsed value: its text, and how the catalogue named and masks it. */
export type InnerSecret = Omit<SecretMatch, "start" | "end">;

/** Collects the secrets of a parsed JSON value (the JSON walker in collect mode, json.ts). */
export type CollectSecrets = (value: unknown, nesting: number) => InnerSecret[];

/** Every occurrence of `needle` in `text` as a match carrying `secret`'s kind and mask. */
function occurrences(text: string, needle: string, secret: InnerSecret, out: SecretMatch[]): void {
  if (needle === "") return;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
    out.push({ ...secret, start: at, end: at + needle.length, value: needle, prefixLength: Math.min(secret.prefixLength, needle.length) });
  }
}

/** Matches for the secrets of a string that parses as JSON (see file header); none otherwise. */
export function jsonStringSecrets(text: string, nesting: number, collect: CollectSecrets): SecretMatch[] {
  if (nesting >= MAX_NESTING || text.length < 2 || text.length > MAX_EMBEDDED_CHARS) return [];
  const first = text.trimStart()[0];
  if (first !== "{" && first !== "[" && first !== '"') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (typeof parsed !== "object" || parsed === null) {
    if (typeof parsed !== "string") return [];
  }
  const out: SecretMatch[] = [];
  for (const secret of collect(parsed, nesting + 1)) {
    // As the text holds it: JSON-escaped (quotes, backslashes, newlines), and also plain, for
    // values that need no escaping.
    occurrences(text, JSON.stringify(secret.value).slice(1, -1), secret, out);
  }
  return out;
}

const BASE64_CHAR = new Uint8Array(128);
for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_") BASE64_CHAR[ch.charCodeAt(0)] = 1;
const VALUE = new Int16Array(128).fill(-1);
"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".split("").forEach((ch, i) => (VALUE[ch.charCodeAt(0)] = i));
VALUE["-".charCodeAt(0)] = 62;
VALUE["_".charCodeAt(0)] = 63;

/** Bytes of a base64 or base64url run (padding stripped before), or null for a length no bytes encode to. */
function decodeRun(run: string): Uint8Array | null {
  if (run.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((run.length * 3) / 4));
  let bits = 0;
  let buffer = 0;
  let at = 0;
  for (let i = 0; i < run.length; i++) {
    buffer = (buffer << 6) | VALUE[run.charCodeAt(i)]!;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (buffer >> bits) & 0xff;
    }
  }
  return out.subarray(0, at);
}

/** Text when the bytes are UTF-8 made mostly of printable characters (as a `.env` line is); else null. */
function asText(bytes: Uint8Array): string | null {
  let printable = 0;
  for (const byte of bytes) if (byte >= 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) printable++;
  if (printable < bytes.length * 0.95) return null;
  const text = utf8Decode(bytes);
  if (text.includes("\ufffd")) return null;
  return text;
}

/** Matches covering each base64 run of `text` whose decoded text holds a secret. */
export function base64Secrets(text: string, catalogue: readonly SecretPattern[] | undefined): SecretMatch[] {
  const out: SecretMatch[] = [];
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code >= 128 || BASE64_CHAR[code] === 0) {
      i++;
      continue;
    }
    const start = i;
    while (i < text.length && text.charCodeAt(i) < 128 && BASE64_CHAR[text.charCodeAt(i)] === 1) i++;
    let end = i;
    while (end < text.length && end - i < 2 && text[end] === "=") end++;
    const run = text.slice(start, i);
    if (run.length >= MIN_BASE64_RUN && run.length <= MAX_BASE64_RUN) {
      const bytes = decodeRun(run);
      // A gzip stream (`gzip -c .env | base64`) is read inflated.
      const plain = bytes && isGzip(bytes) ? gunzipHead(bytes) : bytes;
      const decoded = plain ? asText(plain) : null;
      if (decoded !== null && findSecrets(decoded, catalogue).length > 0) {
        out.push({ kind: BASE64_SECRET_KIND, label: BASE64_SECRET_LABEL, start, end, value: text.slice(start, end), prefixLength: 0, mask: "full" });
      }
    }
    i = Math.max(end, i);
  }
  return out;
}
