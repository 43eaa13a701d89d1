// Deterministic generator of a large pi session (JSONL, format version 3) for benchmarks: user
// prompts, tool calls with large outputs, answers, and compactions that keep the context bounded
// the way pi does. Written to a temporary directory, never committed. Same options → same bytes.
import { createWriteStream, existsSync, renameSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { seededRandom } from "../src/core/util/seeded-random";
import { newTempFile, piEntryChain, piSessionHeader, ranAsScript, wordPicker } from "./generate-common";

export interface GenerateOptions {
  /** Minimum file size in bytes (default 105 MB). */
  minBytes?: number;
  /** Minimum number of turns (assistant messages = main requests; default 2,000). */
  minTurns?: number;
  /** Compact when the context since the last compaction exceeds this many characters (default 600 KB). */
  compactAtChars?: number;
  seed?: number;
  /**
   * End every tool result with a marker unique to it (`result-<prompt>-<step>.`), so a search
   * benchmark can look for a string only one tool result holds. Off by default: the other
   * benchmarks' bytes stay as they were. Draws no random numbers, so the rest is unchanged.
   */
  markToolResults?: boolean;
}

export interface GeneratedSession {
  file: string;
  bytes: number;
  turns: number;
  lines: number;
  compactions: number;
}


const WORDS = "the store index note tag search archive markdown file line config error module cache token request session branch compaction summary value return function const let await async import export 한국어 노트 저장 ✓".split(" ");

export async function generatePiSession(options: GenerateOptions = {}): Promise<GeneratedSession> {
  const minBytes = options.minBytes ?? 105 * 1024 * 1024;
  const minTurns = options.minTurns ?? 2000;
  const compactAt = options.compactAtChars ?? 600_000;
  const rand = seededRandom(options.seed ?? 42);
  const file = newTempFile("contextscope-bench-", "session.jsonl");
  const out = createWriteStream(file);
  let bytes = 0;
  let lines = 0;
  let turns = 0;
  let compactions = 0;
  let clock = Date.parse("2026-11-29T08:00:00.000Z");
  const chain = piEntryChain();
  const word = wordPicker(rand, WORDS);

  const write = async (record: Record<string, unknown>) => {
    const line = JSON.stringify(record) + "\n";
    bytes += Buffer.byteLength(line);
    lines++;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  };
  const words = (count: number) => {
    const parts: string[] = [];
    for (let i = 0; i < count; i++) parts.push(word());
    return parts.join(rand() < 0.1 ? "\n" : " ");
  };
  const entry = async (fields: Record<string, unknown>) => {
    clock += 200 + Math.floor(rand() * 4000);
    const { id, record } = chain(fields, new Date(clock).toISOString());
    await write(record);
    return id;
  };
  const usage = (input: number) => ({ input, output: 40, cacheRead: 0, cacheWrite: 0, totalTokens: input + 40 });

  await write(piSessionHeader("bench-session", new Date(clock).toISOString()));
  await entry({ type: "model_change", provider: "openai", modelId: "gpt-4.1" });
  await entry({ type: "thinking_level_change", thinkingLevel: "off" });

  let contextChars = 0;
  let prompt = 0;
  while (bytes < minBytes || turns < minTurns) {
    prompt++;
    const userId = await entry({ type: "message", message: { role: "user", content: [{ type: "text", text: `Prompt ${prompt}: ${words(20)}` }], timestamp: clock } });
    contextChars += 200;
    const steps = 1 + Math.floor(rand() * 3);
    for (let step = 0; step < steps; step++) {
      turns++;
      const callId = `call_${prompt}_${step}`;
      await entry({
        type: "message",
        message: {
          role: "assistant",
          content: [{ type: "toolCall", id: callId, name: "bash", arguments: { command: `cat file-${prompt}-${step}.md` } }],
          api: "openai-completions",
          provider: "openai",
          model: "gpt-4.1",
          usage: usage(Math.ceil(contextChars / 4)),
          stopReason: "toolUse",
          timestamp: clock,
        },
      });
      const output = words(1500 + Math.floor(rand() * 9000)) + (options.markToolResults ? ` result-${prompt}-${step}.` : "");
      await entry({
        type: "message",
        message: { role: "toolResult", toolCallId: callId, toolName: "bash", content: [{ type: "text", text: output }], isError: false, timestamp: clock },
      });
      contextChars += output.length + 100;
    }
    turns++;
    await entry({
      type: "message",
      message: {
        role: "assistant",
        content: [{ type: "text", text: words(60) }],
        api: "openai-completions",
        provider: "openai",
        model: "gpt-4.1",
        usage: usage(Math.ceil(contextChars / 4)),
        stopReason: "stop",
        timestamp: clock,
      },
    });
    contextChars += 400;
    if (contextChars > compactAt) {
      compactions++;
      await entry({ type: "compaction", summary: `## Goal\n${words(300)}`, firstKeptEntryId: userId, tokensBefore: Math.ceil(contextChars / 4), details: {}, fromHook: false });
      contextChars = 2000;
    }
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return { file, bytes, turns, lines, compactions };
}

// `npx tsx bench/generate-session.ts` prints where it wrote the session.
if (ranAsScript(import.meta.url)) {
  generatePiSession().then((result) => console.log(JSON.stringify(result)));
}

/**
 * A generated session of at least `mb` MiB (seed 1) in the temporary folder, reused from an
 * earlier run when present (the browser benchmarks share it: a 1 GB session takes minutes to write).
 */
export async function cachedPiSession(mb: number): Promise<string> {
  const cached = path.join(tmpdir(), `contextscope-browser-open-${mb}mb.jsonl`);
  if (existsSync(cached)) return cached;
  const generated = await generatePiSession({ minBytes: mb * 1024 * 1024, seed: 1 });
  renameSync(generated.file, cached);
  return cached;
}
