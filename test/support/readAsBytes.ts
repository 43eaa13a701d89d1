// Tests' way to read a session as the CLI and the worker read it: as bytes, in chunks that cut
// lines apart, with readers keeping their large texts stored, either in the store (in memory) or
// left in the "file" (a memory text source, as the CLI leaves them). With it, what the stored-text
// tests of every agent compare: where each stored text sits in an entry, and a session's outputs
// (each turn's request body and context, the analysis, the prefix rows) as plain JSON, and the
// comparison of a session read as strings and as bytes that those tests make.
import { expect } from "vitest";
import type { PipelineOptions, Session, SessionEntry } from "../../src/core/model";
import { readSessionText } from "../../src/core/session/index";
import { analyzeSession, buildTurnContext, buildTurnRequest } from "../../src/core/session/pipeline";
import { readSessionChunks } from "../../src/core/session/read";
import { analyzeSessionPrefixes } from "../../src/core/session/sessionPrefixes";
import { isStoredText, releaseTextStore, type TextStore } from "../../src/core/text/storedText";
import { readersKeepStoredTexts, setReadersKeepStoredTexts } from "../../src/core/text/storedTextsSwitch";
import { stringifyWithTexts, withTextsDecoded } from "../../src/core/text/text";
import { memoryTextSource } from "./memoryTextSource";

/** Every store a byte read made, released by `releaseBytesReads` (a test file's afterAll). */
const opened: TextStore[] = [];

export function keepStoreUntilRelease(store: TextStore): void {
  opened.push(store);
}

export function releaseBytesReads(): void {
  opened.splice(0).forEach(releaseTextStore);
}

export interface BytesReadOptions {
  /** Size of the chunks the bytes are handed in (64 KB unless said). */
  chunkBytes?: number;
  /** Leave the stored texts in the bytes themselves (as the CLI leaves them in the file). */
  inSource?: boolean;
}

/** `text` read as bytes with readers keeping stored texts (the switch is put back after). */
export function readSessionAsBytes(text: string, name: string, options: BytesReadOptions = {}): Session {
  const chunkBytes = options.chunkBytes ?? 64 * 1024;
  const bytes = new TextEncoder().encode(text);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += chunkBytes) chunks.push(bytes.subarray(at, at + chunkBytes));
  const decoder = new TextDecoder("utf-8");
  const before = readersKeepStoredTexts();
  setReadersKeepStoredTexts(true);
  try {
    const session = readSessionChunks(chunks, name, (part) => decoder.decode(part), undefined, options.inSource ? memoryTextSource(bytes) : undefined);
    if (session.textStore) keepStoreUntilRelease(session.textStore);
    return session;
  } finally {
    setReadersKeepStoredTexts(before);
  }
}

/** Paths (`message.content[].text`) of every stored text of `value`, each list index written `[]`. */
export function storedTextPaths(value: unknown, at = ""): string[] {
  if (isStoredText(value)) return [at];
  if (typeof value !== "object" || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((item) => storedTextPaths(item, `${at}[]`));
  return Object.entries(value).flatMap(([key, item]) => storedTextPaths(item, at === "" ? key : `${at}.${key}`));
}

/** Each turn's request body and context, the analysis and the prefix rows, as plain JSON keyed by what they are. */
export function sessionOutputs(session: Session, options: PipelineOptions): Record<string, string> {
  const plain = (value: unknown) => stringifyWithTexts(value);
  const analysis = analyzeSession(session, options);
  const out: Record<string, string> = { analysis: plain(analysis) };
  for (const summary of analysis.turns) {
    out[`request ${summary.turn}`] = plain(buildTurnRequest(session, options, summary.turn).body);
    out[`context ${summary.turn}`] = plain(buildTurnContext(session, options, summary.turn));
  }
  out.prefix = plain(analyzeSessionPrefixes(session, options));
  return out;
}

/**
 * Reads `text` as strings and as bytes (kept in the store, then left in the "file") and expects
 * the same warnings, the same entries once stored texts are decoded, at least `minStored` stored
 * texts each at a place `expectPlace` accepts, every one of them left in the file when asked, and
 * the same `outputs`.
 */
export function expectSameBytesRead(
  text: string,
  name: string,
  minStored: number,
  outputs: (session: Session) => Record<string, string>,
  expectPlace: (entry: SessionEntry, at: string) => void,
): void {
  const strings = readSessionText(text, name);
  const expected = outputs(strings);
  for (const inSource of [false, true]) {
    const bytes = readSessionAsBytes(text, name, { inSource });
    expect(bytes.warnings).toEqual(strings.warnings);
    expect(bytes.entries.map((entry) => withTextsDecoded(entry))).toEqual(strings.entries);
    let stored = 0;
    for (const entry of bytes.entries) {
      const paths = storedTextPaths(entry.raw);
      stored += paths.length;
      for (const at of paths) expectPlace(entry, at);
    }
    expect(stored).toBeGreaterThanOrEqual(minStored);
    if (inSource && stored > 0) expect(bytes.textStore?.sourced).toBe(stored);
    if (!inSource && stored > 0) expect(bytes.textStore?.sourced).toBeUndefined();
    const actual = outputs(bytes);
    const differing = Object.keys(expected).filter((key) => actual[key] !== expected[key]);
    expect(differing).toEqual([]);
  }
}
