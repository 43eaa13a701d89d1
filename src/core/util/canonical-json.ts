// Canonical JSON: JSON.stringify's compact rendering with every object's keys sorted by UTF-16 code
// units (integer-like keys included). Claude Code's message hashes (FM-CC-19 step 2), content-block
// equality keys, and opencode's chars / 4 estimate (CP-OC-5) all use it.
import { decodeStoredText, isStoredText } from "../text/storedText";

/**
 * As JSON.stringify renders values it cannot represent: in an object, an undefined, function or
 * symbol value drops the key; in an array (holes included) it is written `null`; at the top level
 * the result is "null". A top-level string is quoted like any other string. Strings are escaped as
 * JSON.stringify escapes them (non-ASCII left as is, lone surrogates as \uXXXX). Values are plain
 * JSON data: `toJSON` is not called, and class instances render as their own enumerable keys.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (isStoredText(value)) return JSON.stringify(decodeStoredText(value));
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (let i = 0; i < value.length; i++) items.push(canonicalJson(value[i]));
    return `[${items.join(",")}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => rendersInObject(record[key]))
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(",")}}`;
}

function rendersInObject(value: unknown): boolean {
  return value !== undefined && typeof value !== "function" && typeof value !== "symbol";
}
