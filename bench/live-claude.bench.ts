// One turn appended to a followed Claude Code transcript: the live analysis of the grown session
// with its caches carried over (src/core/agents/claude-code/growth.ts) against the same analysis
// on a session value without them (what every append cost before the hook).
//   npx tsx bench/live-claude.bench.ts [--runs 7] FILE.jsonl ...
// e.g. the real sessions of ../shared/fixtures/realworld/claude-code/ (read from there). Each
// file is cut before the first entry of its last main-chain API message: the follower reads the
// part before the cut and analyses it (its last turn built), then the rest is appended. Timed:
// "carried" = the new session value (entries copied, caches carried) + analyzeSession + the last
// turn's request; "rebuilt" = analyzeSession + the last turn's request on a value of the same
// bytes read separately (its read not timed). Medians of --runs. Prints one JSON line per file.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { PipelineOptions } from "../src/core/model";
import { SessionFollower } from "../src/core/session/follow";
import { analyzeSession, buildTurnRequest } from "../src/core/session/index";

const OPTIONS: PipelineOptions = { profile: "claude-code", leafId: null, api: null, header: null, notes: false };
const decoder = new TextDecoder();
const decode = (bytes: Uint8Array) => decoder.decode(bytes);

function argument(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? (process.argv[at + 1] as string) : fallback;
}

/** Byte offset of the line holding the first entry of the last main-chain API message (a request Claude Code sent). */
function cutBeforeLastAnswer(text: string): number {
  const lines = text.split("\n");
  let lastMessage: string | null = null;
  let cutLine = -1;
  for (let index = lines.length - 1; index >= 0; index--) {
    const line = lines[index] as string;
    if (!line.includes('"assistant"')) continue;
    const value = JSON.parse(line) as { type?: string; isSidechain?: boolean; message?: { id?: string; model?: string } };
    if (value.type !== "assistant" || value.isSidechain === true || !value.message?.id || value.message.model === "<synthetic>") continue;
    lastMessage ??= value.message.id;
    if (value.message.id !== lastMessage) break;
    cutLine = index;
  }
  return Buffer.byteLength(lines.slice(0, cutLine).join("\n") + "\n");
}

function lastTurnWork(session: ReturnType<SessionFollower["session"]>): number {
  const turns = analyzeSession(session!, OPTIONS).turns.length;
  buildTurnRequest(session!, OPTIONS, turns);
  return turns;
}

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const runs = Number(argument("runs", "7"));
const files = process.argv.slice(2).filter((item, at, all) => item.endsWith(".jsonl") && all[at - 1] !== "--runs");
for (const file of files) {
  const text = readFileSync(file, "utf8");
  const bytes = new TextEncoder().encode(text);
  const name = path.basename(file);
  const cut = cutBeforeLastAnswer(text);
  const carried: number[] = [];
  const rebuilt: number[] = [];
  let turns = 0;
  for (let run = 0; run < runs; run++) {
    const follower = new SessionFollower(name, decode);
    follower.append(bytes.subarray(0, cut));
    lastTurnWork(follower.session());
    follower.append(bytes.subarray(cut));
    let start = performance.now();
    turns = lastTurnWork(follower.session());
    carried.push(performance.now() - start);
    const separate = new SessionFollower(name, decode);
    separate.append(bytes);
    const value = separate.session();
    start = performance.now();
    lastTurnWork(value);
    rebuilt.push(performance.now() - start);
  }
  const carriedMs = median(carried);
  const rebuiltMs = median(rebuilt);
  console.log(JSON.stringify({ file: name, mb: +(bytes.length / 1e6).toFixed(2), turns, appendedBytes: bytes.length - cut, carriedMs: +carriedMs.toFixed(2), rebuiltMs: +rebuiltMs.toFixed(2), ratio: +(carriedMs / rebuiltMs).toFixed(3) }));
}
