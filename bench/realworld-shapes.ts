// The shapes of real users' sessions, per agent, for the benchmark generator
// (bench/generate-agent-session.ts): sizes in characters of user prompts, assistant texts, thinking
// texts, tool-call arguments (as JSON), tool results and compaction summaries; the share of
// non-ASCII characters; tool calls per prompt; API calls per prompt; API calls per compaction;
// sub-agent files per session and progress lines per tool call (Claude Code). Read plainly as JSON
// lines from ../shared/fixtures/realworld and realworld-next (Claude Code, Codex, pi and OpenClaw's
// pi format, hermes-agent transcripts). Prints a table and, with `--write`, writes
// bench/realworld-shapes.json: quantiles only, no user's content. An agent without real files here
// (Gemini CLI, Qwen Code, deepseek-harness) is generated from the pooled shapes ("all").
// `./node_modules/.bin/tsx bench/realworld-shapes.ts [--write]`.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

/** The probabilities the quantiles are taken at (0 and 1 are the smallest and largest seen). */
const QUANTILE_POINTS = [0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1] as const;

/** One measured distribution: its quantiles at QUANTILE_POINTS and how many values it was taken from. */
export interface Distribution {
  n: number;
  q: number[];
}

export interface AgentShapes {
  files: number;
  bytes: number;
  userText: Distribution;
  assistantText: Distribution;
  thinking: Distribution;
  toolArgs: Distribution;
  toolResult: Distribution;
  summary: Distribution;
  toolCallsPerPrompt: Distribution;
  callsPerPrompt: Distribution;
  callsPerCompaction: Distribution;
  subagentsPerSession: Distribution;
  progressPerToolCall: Distribution;
  /** Share of non-ASCII UTF-16 code units among every measured text's characters. */
  nonAscii: number;
}

type Sample = Record<Exclude<keyof AgentShapes, "files" | "bytes" | "nonAscii">, number[]>;

function emptySample(): Sample {
  return {
    userText: [], assistantText: [], thinking: [], toolArgs: [], toolResult: [], summary: [],
    toolCallsPerPrompt: [], callsPerPrompt: [], callsPerCompaction: [], subagentsPerSession: [], progressPerToolCall: [],
  };
}

function quantiles(values: number[]): Distribution {
  const sorted = values.slice().sort((a, b) => a - b);
  if (sorted.length === 0) return { n: 0, q: [] };
  return {
    n: sorted.length,
    q: QUANTILE_POINTS.map((p) => {
      const at = p * (sorted.length - 1);
      const low = Math.floor(at);
      const high = Math.min(sorted.length - 1, low + 1);
      return Math.round(sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low));
    }),
  };
}

/** Running counts of characters and non-ASCII characters over every measured text. */
class TextCount {
  chars = 0;
  nonAscii = 0;
  add(text: string): number {
    this.chars += text.length;
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) this.nonAscii++;
    return text.length;
  }
}

function jsonLines(file: string): Record<string, unknown>[] {
  const records: Record<string, unknown>[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (value && typeof value === "object" && !Array.isArray(value)) records.push(value as Record<string, unknown>);
    } catch {
      // A damaged line is not a shape.
    }
  }
  return records;
}

const obj = (value: unknown): Record<string, unknown> => (value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const str = (value: unknown): string => (typeof value === "string" ? value : value === undefined || value === null ? "" : JSON.stringify(value));

/** Counts of one prompt's work, closed when the next human prompt starts. */
class PromptCounter {
  private toolCalls = 0;
  private calls = 0;
  private open = false;
  constructor(private readonly sample: Sample) {}
  prompt(): void {
    this.close();
    this.open = true;
  }
  toolCall(): void {
    this.toolCalls++;
  }
  call(): void {
    this.calls++;
  }
  close(): void {
    if (this.open && this.calls > 0) {
      this.sample.toolCallsPerPrompt.push(this.toolCalls);
      this.sample.callsPerPrompt.push(this.calls);
    }
    this.toolCalls = 0;
    this.calls = 0;
    this.open = false;
  }
}

function blockText(content: unknown, count: TextCount, into: number[], type = "text"): void {
  if (typeof content === "string") {
    if (content) into.push(count.add(content));
    return;
  }
  for (const block of arr(content)) {
    const b = obj(block);
    if (b.type === type && typeof b.text === "string") into.push(count.add(b.text));
  }
}

/**
 * An assistant message's blocks into the sample: texts, thinking, and tool calls (their arguments
 * under `argsKey`, as JSON). Returns how many tool calls it held.
 */
function assistantBlocks(content: unknown, sample: Sample, count: TextCount, toolType: string, argsKey: string): number {
  let calls = 0;
  for (const block of arr(content)) {
    const b = obj(block);
    if (b.type === "text" && typeof b.text === "string") sample.assistantText.push(count.add(b.text));
    else if (b.type === "thinking" && typeof b.thinking === "string" && b.thinking) sample.thinking.push(count.add(b.thinking));
    else if (b.type === toolType) {
      sample.toolArgs.push(count.add(JSON.stringify(b[argsKey] ?? {})));
      calls++;
    }
  }
  return calls;
}

function claudeFile(file: string, sample: Sample, count: TextCount): void {
  const prompts = new PromptCounter(sample);
  const requests = new Set<string>();
  let callsSinceCompaction = 0;
  let toolCalls = 0;
  let progress = 0;
  for (const r of jsonLines(file)) {
    if (r.type === "progress") progress++;
    if (r.type === "system" && r.subtype === "compact_boundary") {
      if (callsSinceCompaction > 0) sample.callsPerCompaction.push(callsSinceCompaction);
      callsSinceCompaction = 0;
      continue;
    }
    if (r.isSidechain === true) continue;
    const message = obj(r.message);
    if (r.type === "user") {
      if (r.isCompactSummary === true) {
        if (typeof message.content === "string") sample.summary.push(count.add(message.content));
        continue;
      }
      const content = message.content;
      const results = arr(content).filter((b) => obj(b).type === "tool_result");
      if (results.length > 0) {
        for (const result of results) {
          const c = obj(result).content;
          if (typeof c === "string") sample.toolResult.push(count.add(c));
          else sample.toolResult.push(arr(c).reduce<number>((sum, b) => sum + (typeof obj(b).text === "string" ? count.add(obj(b).text as string) : 0), 0));
        }
        continue;
      }
      if (r.isMeta === true) continue;
      const text = typeof content === "string" ? content : arr(content).map((b) => str(obj(b).text)).join("");
      if (text.startsWith("<") || text.startsWith("[Request interrupted")) continue;
      sample.userText.push(count.add(text));
      prompts.prompt();
    } else if (r.type === "assistant") {
      const id = str(r.requestId) || str(message.id);
      if (!requests.has(id)) {
        requests.add(id);
        prompts.call();
        callsSinceCompaction++;
      }
      const calls = assistantBlocks(message.content, sample, count, "tool_use", "input");
      for (let i = 0; i < calls; i++) prompts.toolCall();
      toolCalls += calls;
    }
  }
  prompts.close();
  if (callsSinceCompaction > 0 && sample.callsPerCompaction.length > 0) sample.callsPerCompaction.push(callsSinceCompaction);
  if (toolCalls > 0) sample.progressPerToolCall.push(Math.round((progress / toolCalls) * 100) / 100);
  const folder = path.join(file.slice(0, -".jsonl".length), "subagents");
  const agentIds = new Set<string>();
  for (const r of jsonLines(file)) {
    const result = obj(r.toolUseResult);
    if (typeof result.agentId === "string") agentIds.add(result.agentId);
  }
  sample.subagentsPerSession.push(existsSync(folder) ? readdirSync(folder).filter((n) => n.endsWith(".jsonl")).length : agentIds.size);
}

function codexFile(file: string, sample: Sample, count: TextCount): void {
  const prompts = new PromptCounter(sample);
  let lastTotal = "";
  let callsSinceCompaction = 0;
  let compactions = 0;
  let sawUsage = false;
  for (const r of jsonLines(file)) {
    // Rollouts since 2025 wrap items (`response_item`); the legacy form writes them bare.
    const item = r.type === "response_item" ? obj(r.payload) : typeof r.type === "string" && !("payload" in r) ? r : {};
    const event = r.type === "event_msg" ? obj(r.payload) : {};
    if (r.type === "compacted") {
      compactions++;
      sample.summary.push(count.add(str(obj(r.payload).message)));
      if (callsSinceCompaction > 0) sample.callsPerCompaction.push(callsSinceCompaction);
      callsSinceCompaction = 0;
    }
    if (event.type === "token_count") {
      const total = JSON.stringify(obj(event.info).total_token_usage ?? null);
      if (total !== "null" && total !== lastTotal) {
        sawUsage = true;
        lastTotal = total;
        prompts.call();
        callsSinceCompaction++;
      }
    }
    if (item.type === "message") {
      const texts = arr(item.content).map((b) => str(obj(b).text));
      const text = texts.join("");
      if (item.role === "user") {
        if (text.startsWith("<") || text.startsWith("#")) continue;
        sample.userText.push(count.add(text));
        prompts.prompt();
      } else if (item.role === "assistant") {
        sample.assistantText.push(count.add(text));
        if (!sawUsage) prompts.call();
      }
    } else if (item.type === "function_call" || item.type === "custom_tool_call") {
      sample.toolArgs.push(count.add(str(item.arguments ?? item.input)));
      prompts.toolCall();
      if (!sawUsage) prompts.call();
    } else if (item.type === "function_call_output" || item.type === "custom_tool_call_output") {
      const output = item.output;
      sample.toolResult.push(count.add(typeof output === "string" ? output : str(obj(output).content ?? output)));
    } else if (item.type === "reasoning") {
      const text = arr(item.summary).map((b) => str(obj(b).text)).join("");
      if (text) sample.thinking.push(count.add(text));
    }
  }
  prompts.close();
  if (compactions > 0 && callsSinceCompaction > 0) sample.callsPerCompaction.push(callsSinceCompaction);
  sample.subagentsPerSession.push(0);
}

function piFile(file: string, sample: Sample, count: TextCount): void {
  const prompts = new PromptCounter(sample);
  let callsSinceCompaction = 0;
  let compactions = 0;
  for (const r of jsonLines(file)) {
    if (r.type === "compaction") {
      compactions++;
      sample.summary.push(count.add(str(r.summary)));
      if (callsSinceCompaction > 0) sample.callsPerCompaction.push(callsSinceCompaction);
      callsSinceCompaction = 0;
      continue;
    }
    if (r.type !== "message") continue;
    const message = obj(r.message);
    if (message.role === "user") {
      blockText(message.content, count, sample.userText);
      prompts.prompt();
    } else if (message.role === "assistant") {
      prompts.call();
      callsSinceCompaction++;
      const calls = assistantBlocks(message.content, sample, count, "toolCall", "arguments");
      for (let i = 0; i < calls; i++) prompts.toolCall();
    } else if (message.role === "toolResult") {
      const into: number[] = [];
      blockText(message.content, count, into);
      sample.toolResult.push(into.reduce((a, b) => a + b, 0));
    }
  }
  prompts.close();
  if (compactions > 0 && callsSinceCompaction > 0) sample.callsPerCompaction.push(callsSinceCompaction);
  sample.subagentsPerSession.push(0);
}

function hermesFile(file: string, sample: Sample, count: TextCount): void {
  const prompts = new PromptCounter(sample);
  for (const r of jsonLines(file)) {
    if (r.role === "user") {
      sample.userText.push(count.add(str(r.content)));
      prompts.prompt();
    } else if (r.role === "assistant") {
      prompts.call();
      if (typeof r.content === "string" && r.content) sample.assistantText.push(count.add(r.content));
      if (typeof r.reasoning === "string" && r.reasoning) sample.thinking.push(count.add(r.reasoning));
      for (const call of arr(r.tool_calls)) {
        sample.toolArgs.push(count.add(str(obj(obj(call).function).arguments)));
        prompts.toolCall();
      }
    } else if (r.role === "tool") sample.toolResult.push(count.add(str(r.content)));
  }
  prompts.close();
  sample.subagentsPerSession.push(0);
}

const READERS: Record<string, (file: string, sample: Sample, count: TextCount) => void> = {
  "claude-code": claudeFile,
  codex: codexFile,
  pi: piFile,
  openclaw: piFile,
  hermes: hermesFile,
};

/** Which measured agent a generated agent draws from. */
const MEASURED_AS: Record<string, string> = { openclaw: "pi" };

function sessionFiles(folder: string, agent: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) {
        // A Claude Code session's sub-agent transcripts are counted with their session, not as sessions.
        if (name !== "subagents") walk(full);
      } else if (name.endsWith(".jsonl")) out.push(full);
    }
  };
  walk(path.join(folder, agent));
  return out;
}

function measureShapes(roots: string[]): Record<string, AgentShapes> {
  const samples = new Map<string, { sample: Sample; count: TextCount; files: number; bytes: number }>();
  const add = (agent: string) => {
    if (!samples.has(agent)) samples.set(agent, { sample: emptySample(), count: new TextCount(), files: 0, bytes: 0 });
    return samples.get(agent)!;
  };
  for (const root of roots) {
    if (!existsSync(root)) continue;
    for (const folderAgent of readdirSync(root).sort()) {
      const read = READERS[folderAgent];
      if (!read) continue;
      const agent = MEASURED_AS[folderAgent] ?? folderAgent;
      for (const file of sessionFiles(root, folderAgent)) {
        for (const into of [add(agent), add("all")]) {
          read(file, into.sample, into.count);
          into.files++;
          into.bytes += statSync(file).size;
        }
      }
    }
  }
  const out: Record<string, AgentShapes> = {};
  for (const [agent, { sample, count, files, bytes }] of samples) {
    const shapes = { files, bytes, nonAscii: Math.round((count.nonAscii / Math.max(1, count.chars)) * 10000) / 10000 } as AgentShapes;
    for (const key of Object.keys(sample) as (keyof Sample)[]) shapes[key] = quantiles(sample[key]);
    out[agent] = shapes;
  }
  return out;
}

function printTable(shapes: Record<string, AgentShapes>): void {
  const keys = Object.keys(emptySample()) as (keyof Sample)[];
  for (const [agent, s] of Object.entries(shapes)) {
    console.log(`\n${agent}: ${s.files} files, ${(s.bytes / 1e6).toFixed(1)} MB, non-ASCII ${(s.nonAscii * 100).toFixed(1)} %`);
    console.log(`${"shape".padEnd(22)} ${"n".padStart(5)}  ${QUANTILE_POINTS.map((p) => `q${p}`.padStart(8)).join("")}`);
    for (const key of keys) {
      const d = s[key];
      console.log(`${key.padEnd(22)} ${String(d.n).padStart(5)}  ${d.q.map((v) => String(v).padStart(8)).join("")}`);
    }
  }
}

const script = process.argv[1];
if (script && path.resolve(script) === path.resolve(new URL(import.meta.url).pathname)) {
  const shared = path.join("..", "shared", "fixtures");
  const shapes = measureShapes([path.join(shared, "realworld"), path.join(shared, "realworld-next")]);
  printTable(shapes);
  if (process.argv.includes("--write")) {
    const out = { measured: "../shared/fixtures/realworld and realworld-next, characters (UTF-16 code units)", points: QUANTILE_POINTS, agents: shapes };
    writeFileSync(path.join("bench", "realworld-shapes.json"), JSON.stringify(out, null, 1) + "\n");
    console.log("\nwrote bench/realworld-shapes.json");
  }
}
