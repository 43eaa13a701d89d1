// The distinct texts a whole-session prefix analysis counts tokens for: one pass with the
// collecting o200k source (src/core/tokens/precounted.ts). Shared by the tokenizer and the
// exact-prefix benchmarks, so both measure the same texts.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { PipelineOptions, Session } from "../src/core/model";
import { iterateSessionPrefixes } from "../src/core/session/sessionPrefixes";
import { readSessionBytes } from "../src/core/session/index";
import { collectingO200k } from "../src/core/tokens/precounted";

export function readSessionFile(file: string): Session {
  const decoder = new TextDecoder();
  return readSessionBytes(new Uint8Array(readFileSync(file)), path.basename(file), (bytes) => decoder.decode(bytes));
}

export function distinctTexts(session: Session, pipeline: PipelineOptions = { profile: "pi" }): string[] {
  const texts: string[] = [];
  const source = collectingO200k((text) => texts.push(text));
  for (const report of iterateSessionPrefixes(session, pipeline, { prefix: { tokenizer: "o200k", o200kSource: source } })) void report;
  return texts;
}
