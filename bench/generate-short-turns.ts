// Deterministic generator of long sessions of short turns, for the "work linear in turns"
// benchmark (bench/turns-floor.bench.ts): a Claude Code transcript of N one-word prompts, each
// answered by a thinking block, a tool call, its result and a short answer (two API messages a
// prompt, streamed one block a line as Claude Code writes them); a pi session of N turns
// (prompt, answer); a Gemini CLI chat of N messages in its JSONL form and its older single-JSON
// form. Nothing large: the time such a file takes is per turn, not per byte. Same options → same
// bytes. Written to a temporary directory, never committed (bench/generate-session.ts writes the
// large pi sessions). `npx tsx bench/generate-short-turns.ts <claude|pi|gemini|gemini-json> <N>`
// prints where it wrote one.
import { writeFileSync } from "node:fs";
import { seededRandom } from "../src/core/util/seeded-random";
import { hexId, newTempFile, piEntryChain, piSessionHeader, ranAsScript, wordPicker } from "./generate-common";

export type ShortTurnsAgent = "claude" | "pi" | "gemini" | "gemini-json";

const WORDS = "fix test build lint docs refactor rename check run deploy note 한국어 ✓".split(" ");

function clockFrom(start: string) {
  let at = Date.parse(start);
  return () => new Date((at += 1500)).toISOString();
}

/** A Claude Code transcript (no api-request records: every request is approximated). */
function claudeLines(prompts: number, word: () => string): string[] {
  const lines: string[] = [];
  const now = clockFrom("2026-11-29T08:00:00.000Z");
  const common = { isSidechain: false, userType: "external", cwd: "/home/dev/bench", sessionId: "bench-claude", version: "2.1.39", gitBranch: "main" };
  let n = 0;
  let parent: string | null = null;
  const uuid = () => `00000000-0000-4000-8000-${hexId(++n)}`;
  const push = (fields: Record<string, unknown>) => {
    const id = uuid();
    lines.push(JSON.stringify({ parentUuid: parent, ...common, ...fields, uuid: id, timestamp: now() }));
    parent = id;
    return id;
  };
  const usage = (input: number) => ({ input_tokens: 3, cache_creation_input_tokens: 40, cache_read_input_tokens: input, output_tokens: 20, service_tier: "standard" });
  const assistant = (messageId: string, block: Record<string, unknown>, input: number, stop: string | null) =>
    push({ type: "assistant", requestId: `req_${messageId}`, message: { model: "claude-sonnet-4-5-20250929", id: messageId, type: "message", role: "assistant", content: [block], stop_reason: stop, stop_sequence: null, usage: usage(input) } });
  for (let p = 1; p <= prompts; p++) {
    push({ type: "user", message: { role: "user", content: word() } });
    const first = `msg_bench${hexId(2 * p)}`;
    const toolId = `toolu_bench${hexId(p)}`;
    assistant(first, { type: "thinking", thinking: `Think ${word()} ${word()}.`, signature: `sig${hexId(p, 40)}` }, 1000 + p * 60, null);
    assistant(first, { type: "tool_use", id: toolId, name: "Bash", input: { command: `echo ${word()}`, description: "Echo" } }, 1000 + p * 60, "tool_use");
    push({ type: "user", message: { role: "user", content: [{ tool_use_id: toolId, type: "tool_result", content: word(), is_error: false }] }, toolUseResult: { stdout: "ok", stderr: "", interrupted: false } });
    assistant(`msg_bench${hexId(2 * p + 1)}`, { type: "text", text: `Done: ${word()}.` }, 1040 + p * 60, "end_turn");
  }
  return lines;
}

/** A pi session (format version 3) of prompt/answer turns. */
function piLines(turns: number, word: () => string): string[] {
  const now = clockFrom("2026-11-29T08:00:00.000Z");
  const lines = [JSON.stringify(piSessionHeader("bench-pi", now()))];
  const chain = piEntryChain();
  const entry = (fields: Record<string, unknown>) => lines.push(JSON.stringify(chain(fields, now()).record));
  entry({ type: "model_change", provider: "anthropic", modelId: "claude-sonnet-4-5" });
  for (let t = 1; t <= turns; t++) {
    entry({ type: "message", message: { role: "user", content: [{ type: "text", text: word() }], timestamp: t } });
    const usage = { input: 100 + 8 * t, output: 4, cacheRead: 0, cacheWrite: 0, totalTokens: 104 + 8 * t };
    entry({ type: "message", message: { role: "assistant", content: [{ type: "text", text: word() }], api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5", usage, stopReason: "stop", timestamp: t } });
  }
  return lines;
}

/** Gemini CLI chat messages: a user prompt and the model's answer, alternately. */
function geminiMessages(messages: number, word: () => string): Record<string, unknown>[] {
  const now = clockFrom("2026-12-03T09:00:00.000Z");
  const out: Record<string, unknown>[] = [];
  for (let m = 0; m < messages; m++) {
    const id = `bench-${hexId(m + 1, 8)}`;
    if (m % 2 === 0) out.push({ id, timestamp: now(), type: "user", content: [{ text: word() }] });
    else {
      const input = 1000 + 10 * m;
      out.push({ id, timestamp: now(), type: "gemini", content: word(), thoughts: [], tokens: { input, output: 4, cached: 0, thoughts: 0, tool: 0, total: input + 4 }, model: "gemini-2.5-flash" });
    }
  }
  return out;
}

const GEMINI_META = { sessionId: "bench-gemini", projectHash: "0".repeat(64), startTime: "2026-12-03T09:00:00.000Z", lastUpdated: "2026-12-03T09:00:00.000Z" };

/** The file's text: one generated session of `count` turns (prompts for Claude Code, messages for Gemini). */
function shortTurnsSession(agent: ShortTurnsAgent, count: number, seed = 1): string {
  const word = wordPicker(seededRandom(seed), WORDS);
  if (agent === "claude") return claudeLines(count, word).join("\n") + "\n";
  if (agent === "pi") return piLines(count, word).join("\n") + "\n";
  const messages = geminiMessages(count, word);
  if (agent === "gemini-json") return JSON.stringify({ ...GEMINI_META, messages }, null, 2) + "\n";
  const lines = [JSON.stringify({ ...GEMINI_META, kind: "main" })];
  for (const message of messages) lines.push(JSON.stringify(message), JSON.stringify({ $set: { lastUpdated: message.timestamp } }));
  return lines.join("\n") + "\n";
}

const FILE_NAMES: Record<ShortTurnsAgent, string> = {
  claude: "bench-claude.jsonl",
  pi: "bench-pi.jsonl",
  gemini: "session-2026-12-03T09-00-bench.jsonl",
  "gemini-json": "session-2026-12-03T09-00-bench.json",
};

/** Writes one generated session to a new temporary folder and returns its path. */
export function writeShortTurnsSession(agent: ShortTurnsAgent, count: number, seed = 1): string {
  const file = newTempFile("contextscope-turns-", FILE_NAMES[agent]);
  writeFileSync(file, shortTurnsSession(agent, count, seed));
  return file;
}

if (ranAsScript(import.meta.url)) {
  const agent = process.argv[2] as ShortTurnsAgent;
  if (!(agent in FILE_NAMES)) throw new Error(`agent must be one of ${Object.keys(FILE_NAMES).join(", ")}`);
  console.log(writeShortTurnsSession(agent, Number(process.argv[3] ?? 1000)));
}
