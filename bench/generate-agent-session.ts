// Deterministic, streaming generator of large sessions in each agent's own format, with the shapes
// of real users' files: every size (prompt, answer, thinking, tool-call arguments, tool result,
// compaction summary), the tool calls and API calls per prompt, the API calls between compactions,
// the sub-agents and progress lines, and the share of non-ASCII characters are drawn from the
// quantiles bench/realworld-shapes.ts measured (bench/realworld-shapes.json). Agents without real
// files there draw from the pooled shapes. Writes Claude Code (main transcript with compactions,
// progress lines and `subagents/agent-<id>.jsonl`), Codex rollouts, Gemini CLI JSONL chats
// (compressions as `$set.messages`), Qwen Code chats and deepseek-harness logs (uncompressed),
// laid out in a new temporary folder the way the agent lays them out. Written line by line (a 1 GB session is never held). Same agent,
// size and seed → same bytes.
// `./node_modules/.bin/tsx bench/generate-agent-session.ts <agent> --mb N [--seed S]` prints
// {file, files, bytes, turns, compactions, subagents} as JSON.
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import path from "node:path";
import { seededRandom } from "../src/core/util/seeded-random";
import { hexId, newTempFile, ranAsScript } from "./generate-common";
import type { AgentShapes, Distribution } from "./realworld-shapes";

export const GENERATED_AGENTS = ["claude-code", "codex", "gemini-cli", "qwen-code", "deepseek-harness"] as const;
export type GeneratedAgent = (typeof GENERATED_AGENTS)[number];

export interface AgentSessionOptions {
  minBytes: number;
  seed?: number;
  /** API calls between compactions, instead of drawing them (tests: compactions in a small file). */
  callsPerCompaction?: number;
}

export interface AgentSession {
  agent: GeneratedAgent;
  /** The session file to open. */
  file: string;
  /** Every file written (a Claude Code session's sub-agent transcripts follow the main one). */
  files: string[];
  bytes: number;
  /** Main-chain API calls written. */
  turns: number;
  compactions: number;
  subagents: number;
}

interface ShapesFile {
  points: number[];
  agents: Record<string, AgentShapes>;
}

const SHAPES = JSON.parse(readFileSync(new URL("./realworld-shapes.json", import.meta.url), "utf8")) as ShapesFile;

/** The measured shapes an agent draws from: its own where real files were measured, else the pooled ones. */
function shapesFor(agent: GeneratedAgent): AgentShapes {
  return SHAPES.agents[agent] ?? SHAPES.agents.all!;
}

// Words of code and prose, and words outside ASCII (Korean, accented Latin, symbols: all in the
// Basic Multilingual Plane, so a slice never splits a surrogate pair).
const ASCII_WORDS = "the store index note tag search archive markdown file line config error module cache token request session branch compaction summary value return function const let await async import export src/app.ts test build lint pass fail -- => {} () [] \"quoted\" path\\to\\file 0x1f 42 3.14 TODO".split(" ");
const OTHER_WORDS = "한국어 노트 저장 검색 요약 파일 설정 ✓ → … Tóm tắt báo cáo khái niệm 日本語 変更 テスト".split(" ");

/** Draws from the measured distributions and slices texts from one seeded pool of words. */
class Draw {
  readonly rand: () => number;
  private readonly pool: string;
  constructor(seed: number, nonAscii: number) {
    this.rand = seededRandom(seed);
    // A pool of ~1 M characters whose non-ASCII share is the measured one: a word outside ASCII
    // is chosen whenever the share so far is below it. Texts are slices at random offsets, so the
    // cost of making 1 GB is the cost of writing it.
    const parts: string[] = [];
    let chars = 0;
    let other = 0;
    let sinceBreak = 0;
    while (chars < 1 << 20) {
      const outside = other < nonAscii * chars;
      const list = outside ? OTHER_WORDS : ASCII_WORDS;
      const word = list[Math.floor(this.rand() * list.length)]!;
      if (outside) other += word.length;
      const gap = ++sinceBreak > 6 + this.rand() * 14 ? "\n" : " ";
      if (gap === "\n") sinceBreak = 0;
      parts.push(word, gap);
      chars += word.length + 1;
    }
    this.pool = parts.join("");
  }
  /** A value drawn from a measured distribution (linear between its quantiles). */
  size(d: Distribution, fallback: number): number {
    if (d.n === 0) return fallback;
    const u = this.rand();
    const points = SHAPES.points;
    let i = 0;
    while (i < points.length - 2 && u >= points[i + 1]!) i++;
    const t = (u - points[i]!) / (points[i + 1]! - points[i]!);
    return Math.max(0, Math.round(d.q[i]! + (d.q[i + 1]! - d.q[i]!) * t));
  }
  /** A text of `n` characters from the pool. */
  text(n: number): string {
    if (n <= 0) return "";
    if (n >= this.pool.length) return this.pool.repeat(Math.ceil(n / this.pool.length)).slice(0, n);
    const at = Math.floor(this.rand() * (this.pool.length - n));
    return this.pool.slice(at, at + n);
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rand() * items.length)]!;
  }
}

/** One tool call of a planned API call: its name, arguments and result. */
interface ToolPlan {
  id: string;
  name: string;
  args: Record<string, unknown>;
  result: string;
  /** A sub-agent started by this call (Claude Code's Task tool): its prompt and its own calls. */
  subagent: { id: string; prompt: string; calls: CallPlan[] } | null;
}

/** One planned API call (one model response). */
interface CallPlan {
  thinking: string;
  text: string;
  tools: ToolPlan[];
}

interface PromptPlan {
  prompt: string;
  calls: CallPlan[];
}

/** Plans prompts one at a time from the shapes: calls per prompt, tool calls spread over them. */
class Planner {
  private toolCount = 0;
  private subagentCount = 0;
  constructor(
    readonly draw: Draw,
    readonly shapes: AgentShapes,
    private readonly toolArgs: (draw: Draw, chars: number) => { name: string; args: Record<string, unknown> },
    private readonly subagentRate: number,
    private readonly fixedCallsPerCompaction?: number,
  ) {}

  call(tools: number, allowSubagents: boolean): CallPlan {
    const { draw, shapes } = this;
    const thinking = draw.rand() < 0.6 ? draw.text(draw.size(shapes.thinking, 300)) : "";
    const text = tools === 0 || draw.rand() < 0.3 ? draw.text(Math.max(1, draw.size(shapes.assistantText, 150))) : "";
    const plans: ToolPlan[] = [];
    for (let t = 0; t < tools; t++) {
      const id = hexId(++this.toolCount, 16);
      if (allowSubagents && draw.rand() < this.subagentRate) {
        const agentId = `a${hexId(++this.subagentCount, 16)}`;
        const prompt = draw.text(Math.max(20, draw.size(shapes.userText, 200)));
        const calls = this.calls(Math.max(2, draw.size(shapes.callsPerPrompt, 3)), Math.max(1, draw.size(shapes.toolCallsPerPrompt, 2)), false);
        plans.push({ id, name: "Task", args: { description: "Explore the code", prompt, subagent_type: "Explore" }, result: draw.text(Math.max(1, draw.size(shapes.assistantText, 800))), subagent: { id: agentId, prompt, calls } });
        continue;
      }
      const { name, args } = this.toolArgs(draw, Math.max(2, draw.size(shapes.toolArgs, 100)));
      plans.push({ id, name, args, result: draw.text(draw.size(shapes.toolResult, 500)), subagent: null });
    }
    return { thinking, text, tools: plans };
  }

  /** `count` calls holding `tools` tool calls between them; the last call answers in text. */
  calls(count: number, tools: number, allowSubagents: boolean): CallPlan[] {
    const withTools = Math.max(0, count - 1);
    const out: CallPlan[] = [];
    for (let c = 0; c < withTools; c++) {
      const share = Math.floor(tools / withTools) + (c < tools % withTools ? 1 : 0);
      out.push(this.call(Math.max(1, share), allowSubagents));
    }
    out.push(this.call(0, allowSubagents));
    return out;
  }

  prompt(): PromptPlan {
    const { draw, shapes } = this;
    const tools = draw.size(shapes.toolCallsPerPrompt, 2);
    const calls = Math.max(tools > 0 ? 2 : 1, draw.size(shapes.callsPerPrompt, 3));
    return { prompt: draw.text(Math.max(1, draw.size(shapes.userText, 80))), calls: this.calls(calls, tools, true) };
  }

  /** API calls until the next compaction. */
  callsPerCompaction(): number {
    if (this.fixedCallsPerCompaction !== undefined) return this.fixedCallsPerCompaction;
    const pooled = SHAPES.agents.all!.callsPerCompaction;
    return Math.max(5, this.draw.size(this.shapes.callsPerCompaction.n > 0 ? this.shapes.callsPerCompaction : pooled, 60));
  }

  summary(): string {
    const pooled = SHAPES.agents.all!.summary;
    return this.draw.text(Math.max(100, this.draw.size(this.shapes.summary.n > 0 ? this.shapes.summary : pooled, 12000)));
  }
}

/** A file written one JSON line at a time through a small buffer; counts its bytes. */
class LineFile {
  bytes = 0;
  private readonly fd: number;
  private chunks: string[] = [];
  private pending = 0;
  constructor(readonly file: string) {
    mkdirSync(path.dirname(file), { recursive: true });
    this.fd = openSync(file, "w");
  }
  line(record: unknown): void {
    const text = JSON.stringify(record) + "\n";
    this.chunks.push(text);
    this.pending += text.length;
    if (this.pending > 1 << 20) this.flush();
  }
  private flush(): void {
    if (this.chunks.length === 0) return;
    const buffer = Buffer.from(this.chunks.join(""), "utf8");
    writeSync(this.fd, buffer);
    this.bytes += buffer.length;
    this.chunks = [];
    this.pending = 0;
  }
  /** Bytes written so far, counting the buffered lines as UTF-8 only roughly (their UTF-16 length). */
  approxBytes(): number {
    return this.bytes + this.pending;
  }
  close(): number {
    this.flush();
    closeSync(this.fd);
    return this.bytes;
  }
}

/** A clock that moves a few seconds per record. */
function clockFrom(draw: Draw, start: string): () => string {
  let at = Date.parse(start);
  return () => new Date((at += 200 + Math.floor(draw.rand() * 3000))).toISOString();
}

const uuidOf = (prefix: number, n: number) => `${hexId(prefix, 8)}-0000-4000-8000-${hexId(n)}`;

// ---- Claude Code ----

const CLAUDE_TOOLS = ["Bash", "Read", "Edit", "Grep"] as const;
function claudeTool(draw: Draw, chars: number): { name: string; args: Record<string, unknown> } {
  const name = draw.pick(CLAUDE_TOOLS);
  if (name === "Bash") return { name, args: { command: draw.text(chars), description: "Run a command" } };
  if (name === "Read") return { name, args: { file_path: `/home/dev/bench/${draw.text(Math.min(chars, 60)).replace(/\s+/g, "_")}` } };
  if (name === "Edit") return { name, args: { file_path: "/home/dev/bench/src/app.ts", old_string: draw.text(chars >> 1), new_string: draw.text(chars - (chars >> 1)) } };
  return { name, args: { pattern: draw.text(Math.min(chars, 80)), path: "/home/dev/bench" } };
}

function writeClaude(options: AgentSessionOptions, draw: Draw, shapes: AgentShapes): AgentSession {
  const subagentRate = shapes.subagentsPerSession.q[3]! / Math.max(1, shapes.toolArgs.n / Math.max(1, shapes.subagentsPerSession.n));
  const planner = new Planner(draw, shapes, claudeTool, subagentRate, options.callsPerCompaction);
  const sessionId = uuidOf(0xbe0c0de, 1);
  const file = newTempFile("contextscope-agent-", path.join("projects", "-home-dev-bench", `${sessionId}.jsonl`));
  const main = new LineFile(file);
  const files = [file];
  const now = clockFrom(draw, "2026-11-29T08:00:00.000Z");
  const common = { userType: "external", cwd: "/home/dev/bench", sessionId, version: "2.1.39", gitBranch: "main" };
  let uuids = 0;
  let messages = 0;
  let turns = 0;
  let compactions = 0;
  let subagents = 0;
  let contextChars = 20_000;
  let untilCompaction = planner.callsPerCompaction();
  const progressRate = shapes.progressPerToolCall.n > 0 ? shapes.progressPerToolCall.q[4]! : 0.5;

  /** Writes one thread's lines (the main chain or a sub-agent's) into `out`. */
  const thread = (out: LineFile, sidechain: boolean, agentId: string | null) => {
    let parent: string | null = null;
    const extra = agentId ? { agentId } : {};
    const push = (fields: Record<string, unknown>, parentUuid: string | null = parent) => {
      const uuid = uuidOf(0xc1a0de, ++uuids);
      out.line({ parentUuid, isSidechain: sidechain, ...common, ...extra, ...fields, uuid, timestamp: now() });
      parent = uuid;
      return uuid;
    };
    const usage = () => ({ input_tokens: 3, cache_creation_input_tokens: 400, cache_read_input_tokens: Math.ceil(contextChars / 4), output_tokens: 120, service_tier: "standard" });
    const apiCall = (call: CallPlan) => {
      const messageId = `msg_bench${hexId(++messages, 20)}`;
      const requestId = `req_bench${hexId(messages, 20)}`;
      const blocks: Record<string, unknown>[] = [];
      if (call.thinking) blocks.push({ type: "thinking", thinking: call.thinking, signature: `Eo${hexId(messages, 40)}` });
      if (call.text) blocks.push({ type: "text", text: call.text });
      for (const tool of call.tools) blocks.push({ type: "tool_use", id: `toolu_${tool.id}`, name: tool.name, input: tool.args });
      const u = usage();
      // One content block a line, the way Claude Code streams them; the last names the stop reason.
      let last = "";
      blocks.forEach((block, i) => {
        const stop = i === blocks.length - 1 ? (call.tools.length > 0 ? "tool_use" : "end_turn") : null;
        last = push({ type: "assistant", requestId, message: { model: "claude-sonnet-4-5-20250929", id: messageId, type: "message", role: "assistant", content: [block], stop_reason: stop, stop_sequence: null, usage: u } });
      });
      contextChars += call.thinking.length + call.text.length;
      for (const tool of call.tools) {
        contextChars += JSON.stringify(tool.args).length;
        const progress = Math.floor(progressRate) + (draw.rand() < progressRate % 1 ? 1 : 0);
        for (let p = 0; p < progress && tool.name === "Bash"; p++) {
          push({ type: "progress", data: { type: "bash_progress", output: "", fullOutput: "", elapsedTimeSeconds: p + 2, totalLines: 0 }, toolUseID: `bash-progress-${p}`, parentToolUseID: `toolu_${tool.id}` });
        }
        let toolUseResult: Record<string, unknown> = { stdout: tool.result, stderr: "", interrupted: false, isImage: false };
        if (tool.subagent) {
          const sub = tool.subagent;
          subagents++;
          const subFile = path.join(file.slice(0, -".jsonl".length), "subagents", `agent-${sub.id}.jsonl`);
          const subOut = new LineFile(subFile);
          const saved = contextChars;
          contextChars = 15_000;
          const subPush = thread(subOut, true, sub.id);
          subPush.prompt(sub.prompt);
          for (const subCall of sub.calls) subPush.apiCall(subCall);
          contextChars = saved;
          subOut.close();
          files.push(subFile);
          toolUseResult = { status: "completed", prompt: sub.prompt, agentId: sub.id, content: [{ type: "text", text: tool.result }], totalDurationMs: 60_000, totalTokens: 20_000, totalToolUseCount: sub.calls.length };
        }
        push({ type: "user", message: { role: "user", content: [{ tool_use_id: `toolu_${tool.id}`, type: "tool_result", content: tool.result, is_error: false }] }, toolUseResult, sourceToolAssistantUUID: last });
        contextChars += tool.result.length;
      }
      return last;
    };
    const prompt = (text: string) => {
      push({ type: "user", message: { role: "user", content: text } });
      contextChars += text.length;
    };
    const compact = () => {
      const boundary = push({ type: "system", subtype: "compact_boundary", content: "Conversation compacted", isMeta: false, level: "info", compactMetadata: { trigger: "auto", preTokens: Math.ceil(contextChars / 4) }, logicalParentUuid: parent }, null);
      const summary = planner.summary();
      push({ type: "user", message: { role: "user", content: `This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n${summary}` }, isVisibleInTranscriptOnly: true, isCompactSummary: true }, boundary);
      contextChars = 20_000 + summary.length;
    };
    return { prompt, apiCall, compact };
  };

  const mainThread = thread(main, false, null);
  main.line({ type: "file-history-snapshot", messageId: uuidOf(0xc1a0de, 0), snapshot: { messageId: uuidOf(0xc1a0de, 0), trackedFileBackups: {}, timestamp: now() }, isSnapshotUpdate: false });
  while (main.approxBytes() < options.minBytes) {
    const plan = planner.prompt();
    mainThread.prompt(plan.prompt);
    for (const call of plan.calls) {
      mainThread.apiCall(call);
      turns++;
      if (--untilCompaction <= 0) {
        mainThread.compact();
        compactions++;
        untilCompaction = planner.callsPerCompaction();
      }
    }
  }
  const bytes = main.close();
  return { agent: "claude-code", file, files, bytes, turns, compactions, subagents };
}

// ---- Codex ----

function codexTool(draw: Draw, chars: number): { name: string; args: Record<string, unknown> } {
  return { name: "exec_command", args: { cmd: draw.text(Math.max(1, chars - 12)) } };
}

function writeCodex(options: AgentSessionOptions, draw: Draw, shapes: AgentShapes): AgentSession {
  const planner = new Planner(draw, shapes, codexTool, 0, options.callsPerCompaction);
  const id = "019e0000-0000-7000-8000-0000000bec00";
  const file = newTempFile("contextscope-agent-", path.join("sessions", "2026", "11", "29", `rollout-2026-11-29T08-00-00-${id}.jsonl`));
  const out = new LineFile(file);
  const now = clockFrom(draw, "2026-11-29T08:00:00.000Z");
  const line = (type: string, payload: Record<string, unknown>) => out.line({ timestamp: now(), type, payload });
  const model = "gpt-5.1-codex";
  let turns = 0;
  let compactions = 0;
  let contextChars = 30_000;
  let output = 0;
  let untilCompaction = planner.callsPerCompaction();
  let prompts: string[] = [];
  const total = { input_tokens: 0, cached_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0, total_tokens: 0 };
  line("session_meta", { id, timestamp: now(), cwd: "/home/dev/bench", originator: "codex_cli_rs", cli_version: "0.128.0", source: "cli", model_provider: "openai", base_instructions: { text: draw.text(12_000) } });
  const tokenCount = () => {
    const last = { input_tokens: Math.ceil(contextChars / 4), cached_input_tokens: Math.ceil(contextChars / 5), output_tokens: 200 + (++output % 7), reasoning_output_tokens: 64, total_tokens: 0 };
    last.total_tokens = last.input_tokens + last.output_tokens;
    for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += last[key];
    line("event_msg", { type: "token_count", info: { total_token_usage: { ...total }, last_token_usage: last, model_context_window: 272_000 }, rate_limits: null });
  };
  while (out.approxBytes() < options.minBytes) {
    const plan = planner.prompt();
    line("turn_context", { cwd: "/home/dev/bench", approval_policy: "on-request", sandbox_policy: { type: "workspace-write" }, model, effort: "medium", summary: "auto" });
    line("response_item", { type: "message", role: "user", content: [{ type: "input_text", text: plan.prompt }] });
    line("event_msg", { type: "user_message", message: plan.prompt, images: [] });
    prompts.push(plan.prompt);
    contextChars += plan.prompt.length;
    for (const call of plan.calls) {
      if (call.thinking) line("response_item", { type: "reasoning", summary: [{ type: "summary_text", text: call.thinking }], content: null, encrypted_content: `gAAAAA${hexId(turns, 32)}` });
      if (call.text) line("response_item", { type: "message", role: "assistant", content: [{ type: "output_text", text: call.text }] });
      for (const tool of call.tools) line("response_item", { type: "function_call", name: tool.name, arguments: JSON.stringify(tool.args), call_id: `call_${tool.id}` });
      tokenCount();
      turns++;
      contextChars += call.thinking.length + call.text.length;
      if (call.text && call.tools.length === 0) line("event_msg", { type: "agent_message", message: call.text });
      for (const tool of call.tools) {
        line("response_item", { type: "function_call_output", call_id: `call_${tool.id}`, output: tool.result });
        contextChars += tool.result.length + JSON.stringify(tool.args).length;
      }
      if (--untilCompaction <= 0) {
        // Codex keeps the user's recent prompts and the summary (as a user message) in place of the history.
        const summary = planner.summary();
        const kept = prompts.slice(-3).map((text) => ({ type: "message", role: "user", content: [{ type: "input_text", text }] }));
        line("compacted", { message: "", replacement_history: [...kept, { type: "message", role: "user", content: [{ type: "input_text", text: summary }] }] });
        prompts = prompts.slice(-3);
        compactions++;
        contextChars = 30_000 + summary.length;
        untilCompaction = planner.callsPerCompaction();
      }
    }
  }
  const bytes = out.close();
  return { agent: "codex", file, files: [file], bytes, turns, compactions, subagents: 0 };
}

// ---- Gemini CLI ----

const GEMINI_TOOLS = ["run_shell_command", "read_file", "grep_search"] as const;
function geminiTool(draw: Draw, chars: number): { name: string; args: Record<string, unknown> } {
  const name = draw.pick(GEMINI_TOOLS);
  if (name === "run_shell_command") return { name, args: { command: draw.text(chars), description: "Run a command" } };
  if (name === "read_file") return { name, args: { file_path: `/home/dev/bench/${draw.text(Math.min(chars, 60)).replace(/\s+/g, "_")}` } };
  return { name, args: { pattern: draw.text(Math.min(chars, 80)) } };
}

function writeGemini(options: AgentSessionOptions, draw: Draw, shapes: AgentShapes): AgentSession {
  const planner = new Planner(draw, shapes, geminiTool, 0, options.callsPerCompaction);
  const sessionId = "0bec0000-0000-4000-8000-000000000001";
  const file = newTempFile("contextscope-agent-", path.join("tmp", "bench", "chats", "session-2026-12-03T09-00-0bec0000.jsonl"));
  const out = new LineFile(file);
  const now = clockFrom(draw, "2026-12-03T09:00:00.000Z");
  let ids = 0;
  const id = () => uuidOf(0x9e311, ++ids);
  let turns = 0;
  let compactions = 0;
  let contextChars = 40_000;
  let untilCompaction = planner.callsPerCompaction();
  const started = now();
  out.line({ sessionId, projectHash: "0".repeat(64), startTime: started, lastUpdated: started, kind: "main" });
  const context = { id: id(), timestamp: started, type: "user", content: [{ text: `<session_context>\n${draw.text(1500)}` }] };
  out.line({ $set: { messages: [context], lastUpdated: started } });
  const message = (record: Record<string, unknown>) => {
    out.line(record);
    out.line({ $set: { lastUpdated: record.timestamp } });
  };
  while (out.approxBytes() < options.minBytes) {
    const plan = planner.prompt();
    message({ id: id(), timestamp: now(), type: "user", content: [{ text: plan.prompt }] });
    contextChars += plan.prompt.length;
    for (const call of plan.calls) {
      const answerId = id();
      const at = now();
      const input = Math.ceil(contextChars / 4);
      const thoughts = call.thinking ? [{ subject: "Planning", description: call.thinking, timestamp: at }] : [];
      const answer = { id: answerId, timestamp: at, type: "gemini", content: call.text, thoughts, tokens: { input, output: 120, cached: 0, thoughts: 40, tool: 0, total: input + 160 }, model: "gemini-2.5-flash" };
      message(answer);
      turns++;
      contextChars += call.thinking.length + call.text.length;
      if (call.tools.length > 0) {
        // The answer is written again with its tool calls and their results once they ran.
        const toolCalls = call.tools.map((tool) => ({
          id: `${tool.name}__${tool.id}`,
          name: tool.name,
          args: tool.args,
          result: [{ functionResponse: { id: `${tool.name}__${tool.id}`, name: tool.name, response: { output: tool.result } } }],
          status: "success",
          timestamp: at,
        }));
        out.line({ ...answer, toolCalls });
        message({ id: id(), timestamp: now(), type: "user", content: call.tools.map((tool) => ({ functionResponse: { id: `${tool.name}__${tool.id}`, name: tool.name, response: { output: tool.result } } })) });
        for (const tool of call.tools) contextChars += tool.result.length + JSON.stringify(tool.args).length;
      }
      if (--untilCompaction <= 0) {
        // A compression installs [session context, <state_snapshot>, acknowledgement] as the whole history.
        const summary = planner.summary();
        const at2 = now();
        out.line({ $set: { messages: [context, { id: id(), timestamp: at2, type: "user", content: [{ text: `<state_snapshot>\n${summary}\n</state_snapshot>` }] }, { id: id(), timestamp: at2, type: "gemini", content: "Got it. Thanks for the additional context!" }], lastUpdated: at2 } });
        compactions++;
        contextChars = 40_000 + summary.length;
        untilCompaction = planner.callsPerCompaction();
      }
    }
  }
  const bytes = out.close();
  return { agent: "gemini-cli", file, files: [file], bytes, turns, compactions, subagents: 0 };
}

// ---- Qwen Code ----

function writeQwen(options: AgentSessionOptions, draw: Draw, shapes: AgentShapes): AgentSession {
  const planner = new Planner(draw, shapes, geminiTool, 0, options.callsPerCompaction);
  const sessionId = "0bec0000-0000-4000-8000-00000000a3e0";
  const file = newTempFile("contextscope-agent-", path.join("projects", "-home-dev-bench", "chats", `${sessionId}.jsonl`));
  const out = new LineFile(file);
  const now = clockFrom(draw, "2026-12-05T08:00:00.000Z");
  const common = { sessionId, cwd: "/home/dev/bench", version: "0.24.4" };
  let uuids = 0;
  let parent: string | null = null;
  const push = (fields: Record<string, unknown>) => {
    const uuid = uuidOf(0xa3e0, ++uuids);
    out.line({ uuid, parentUuid: parent, ...common, timestamp: now(), ...fields });
    parent = uuid;
  };
  let turns = 0;
  let compactions = 0;
  let contextChars = 40_000;
  let untilCompaction = planner.callsPerCompaction();
  while (out.approxBytes() < options.minBytes) {
    const plan = planner.prompt();
    push({ type: "user", provenance: "real_user", message: { role: "user", parts: [{ text: plan.prompt }] } });
    contextChars += plan.prompt.length;
    for (const call of plan.calls) {
      const prompt = Math.ceil(contextChars / 4);
      const parts: Record<string, unknown>[] = [];
      if (call.thinking) parts.push({ text: call.thinking, thought: true });
      if (call.text) parts.push({ text: call.text });
      for (const tool of call.tools) parts.push({ functionCall: { id: `call_${tool.id}`, name: tool.name, args: tool.args } });
      push({ type: "system", provenance: "system", subtype: "ui_telemetry", systemPayload: { uiEvent: { "event.name": "qwen-code.api_response", response_id: `chatcmpl-${hexId(turns + 1)}`, model: "qwen3-coder-plus", status_code: 200, input_token_count: prompt, output_token_count: 120 } } });
      push({ type: "assistant", provenance: "assistant_output", model: "qwen3-coder-plus", message: { role: "model", parts }, usageMetadata: { promptTokenCount: prompt, candidatesTokenCount: 120, thoughtsTokenCount: 40, totalTokenCount: prompt + 160, cachedContentTokenCount: Math.ceil(prompt / 2) } });
      turns++;
      contextChars += call.thinking.length + call.text.length;
      for (const tool of call.tools) {
        push({ type: "tool_result", provenance: "tool_result", message: { role: "user", parts: [{ functionResponse: { id: `call_${tool.id}`, name: tool.name, response: { output: tool.result } } }] }, toolCallResult: { callId: `call_${tool.id}`, status: "success", resultDisplay: tool.result.slice(0, 200) } });
        contextChars += tool.result.length + JSON.stringify(tool.args).length;
      }
      if (--untilCompaction <= 0) {
        const summary = planner.summary();
        const before = Math.ceil(contextChars / 4);
        push({ type: "system", provenance: "system", subtype: "chat_compression", systemPayload: { info: { originalTokenCount: before, newTokenCount: Math.ceil(summary.length / 4), compressionStatus: 1 }, compressedHistory: [{ role: "user", parts: [{ text: `<state_snapshot>\n${summary}\n</state_snapshot>` }] }, { role: "model", parts: [{ text: "Got it. Thanks for the additional context!" }] }] } });
        compactions++;
        contextChars = 40_000 + summary.length;
        untilCompaction = planner.callsPerCompaction();
      }
    }
  }
  const bytes = out.close();
  return { agent: "qwen-code", file, files: [file], bytes, turns, compactions, subagents: 0 };
}


// ---- deepseek-harness ----

/** `text` in the 16-character pieces the harness streams and packs into `*-chunks` rows. */
function pieces(text: string): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += 16) out.push(text.slice(at, at + 16));
  return out.length > 0 ? out : [""];
}

const DSH_TOOLS = ["bash", "read", "grep"] as const;
function dshTool(draw: Draw, chars: number): { name: string; args: Record<string, unknown> } {
  const name = draw.pick(DSH_TOOLS);
  if (name === "bash") return { name, args: { command: draw.text(chars), description: "Run a command" } };
  if (name === "read") return { name, args: { file_path: `/home/dev/bench/${draw.text(Math.min(chars, 60)).replace(/\s+/g, "_")}` } };
  return { name, args: { pattern: draw.text(Math.min(chars, 80)) } };
}

function writeDeepseekHarness(options: AgentSessionOptions, draw: Draw, shapes: AgentShapes): AgentSession {
  const planner = new Planner(draw, shapes, dshTool, 0, options.callsPerCompaction);
  const sessionId = "session-0bec0000-0000-4000-8000-000000000d5e";
  // Written uncompressed (`session.jsonl`, as with compression turned off): the floor reads lines.
  const file = newTempFile("contextscope-agent-", path.join("sessions", "--home-dev-bench--", sessionId, "session.jsonl"));
  const out = new LineFile(file);
  let time = Date.parse("2026-12-02T08:00:00.000Z");
  let seq = 0;
  let ids = 0;
  const id = () => uuidOf(0xd5e, ++ids);
  const event = (type: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    time += 1 + Math.floor(draw.rand() * 40);
    const at = seq++;
    out.line({ type, seq: at, time, data, ...extra });
    return at;
  };
  /** A packed row of `count` chunk events: seq0 … seq0 + count − 1. */
  const packed = (type: string, data: Record<string, unknown>, count: number) => {
    time += 1;
    out.line({ type, seq0: seq, time0: time, data: { ...data, dt: new Array(Math.max(0, count - 1)).fill(0) } });
    seq += count;
  };
  const model = { provider: "deepseek-official", model: "deepseek-v4-flash" };
  let turns = 0;
  let compactions = 0;
  let contextChars = 30_000;
  let untilCompaction = planner.callsPerCompaction();
  /** Seqs of the surface nodes since the last checkpoint (what a compaction replaces). */
  let surface: number[] = [];
  let needsRuntime = true;
  let turn = 0;
  out.line({ type: "session", version: 0, id: sessionId, createdAt: time, cwd: "/home/dev/bench", delegationDepth: 0 });
  event("permission/preset", { preset: "danger-full-access" });
  event("sandbox/mode", { mode: "danger-full-access" });
  event("approval/policy", { policy: "never" });
  const runtime = { content: [{ type: "text", text: `Current runtime context. This snapshot supersedes earlier runtime-context snapshots.\n\n${draw.text(300)}` }], source: { kind: "plugin", plugin: "@deepseek-ai/dsh-system-prompt", form: "snapshot" }, role: "user" };
  while (out.approxBytes() < options.minBytes) {
    const plan = planner.prompt();
    turn++;
    const user = { content: [{ type: "text", text: plan.prompt }], source: { kind: "user" }, role: "user", id: id() };
    event("agent/inbox/spliced", { target: "next-turn", start: 0, inserted: [user] });
    event("turn/start", { turn });
    event("agent/inbox/spliced", { target: "next-turn", start: 0, removedCount: 1, inserted: [] });
    contextChars += plan.prompt.length;
    plan.calls.forEach((call, index) => {
      const step = index + 1;
      event("step/start", { turn, step });
      if (step === 1) {
        surface.push(event("user/message", user, { surfaceOp: "append" }));
        if (needsRuntime) {
          surface.push(event("user/message", { ...runtime, id: id() }, { surfaceOp: "append" }));
          needsRuntime = false;
        }
        if (turn === 1) {
          event("request/header", { header: { config: { ...model, maxTokens: 256000, reasoningEffort: "high" }, adapterDefaults: { reasoningEffort: true, maxTokens: true }, system: `You are an AI agent powered by DeepSeek Harness.\n\n${draw.text(9000)}`, tools: DSH_TOOLS.map((name) => ({ name, description: `The ${name} tool.`, parameters: { type: "object", properties: {} } })) } });
          event("request/context", { ...model, contextWindow: 1_000_000 });
        }
      }
      const blocks: Record<string, unknown>[] = [];
      const chunkSeqs: number[] = [];
      const blockText = (kind: "reasoning" | "text", text: string) => {
        const index = blocks.length;
        chunkSeqs.push(event("assistant/chunk", { turn, step, chunk: { type: "block-start", index, blockType: kind } }));
        const texts = pieces(text);
        packed(kind === "text" ? "text-chunks" : "reasoning-chunks", { turn, step, index, texts }, texts.length);
        blocks.push({ type: kind, text });
      };
      if (call.thinking) blockText("reasoning", call.thinking);
      if (call.text) blockText("text", call.text);
      for (const tool of call.tools) {
        const index = blocks.length;
        const args = JSON.stringify(tool.args);
        event("assistant/chunk", { turn, step, chunk: { type: "block-start", index, blockType: "tool-call" } });
        const argPieces = ["", ...pieces(args)];
        packed("tool-call-chunks", { turn, step, index, id: `call_${tool.id}`, name: tool.name, args: argPieces }, argPieces.length);
        blocks.push({ type: "tool-call", id: `call_${tool.id}`, name: tool.name, arguments: args });
      }
      blocks.forEach((block, index) => event("assistant/chunk", { turn, step, chunk: { type: "block-end", index, block } }));
      const usage = { inputTokens: Math.ceil(contextChars / 4), outputTokens: 120, cacheReadTokens: Math.ceil(contextChars / 5) };
      event("assistant/chunk", { turn, step, chunk: { type: "usage", usage } });
      event("assistant/chunk", { turn, step, chunk: { type: "finish", reason: { kind: call.tools.length > 0 ? "tool-calls" : "stop" } } });
      surface.push(event("assistant/message", { turn, step, message: { role: "assistant", content: blocks, source: { kind: "model", ...model }, id: id() }, usage }, { sourceEventSeqs: chunkSeqs, surfaceOp: "append" }));
      turns++;
      contextChars += call.thinking.length + call.text.length;
      for (const tool of call.tools) {
        const callSeq = event("tool/call", { turn, step, callId: `call_${tool.id}`, name: tool.name, arguments: JSON.stringify(tool.args) });
        surface.push(event("tool/result", { turn, step, message: { source: { kind: "tool", callId: `call_${tool.id}` }, content: [{ type: "tool-result", toolCallId: `call_${tool.id}`, content: [{ type: "text", text: tool.result }], isError: false }], role: "user", id: id() } }, { sourceEventSeqs: [callSeq], surfaceOp: "append" }));
        contextChars += tool.result.length + JSON.stringify(tool.args).length;
      }
      event("step/end", { turn, step });
    });
    event("turn/end", { turn, reason: { kind: "completed" } });
    untilCompaction -= plan.calls.length;
    if (untilCompaction <= 0) {
      // A `/compact` between turns: the checkpoint replaces every surface node since the last one.
      const summary = planner.summary();
      const commandId = `cmd-bench-${compactions + 1}`;
      const compactionId = id();
      event("command/run", { commandId, name: "compact", args: "", source: { kind: "user" } });
      const start = event("compaction/start", { compactionId, sourceCommandId: commandId, turn: null });
      const summarySeq = event("compaction/summary", { compactionId, sourceCommandId: commandId, summary: [{ type: "text", text: summary }], rawOutput: [{ type: "text", text: summary }], llmStreamCall: true, shadowedRange: { start: surface[0], end: surface[surface.length - 1] }, shadowedSeqs: surface.slice(), shadowedTokenCount: Math.ceil(contextChars / 4), ...model, maxTokens: 8192, usage: { inputTokens: Math.ceil(contextChars / 4), outputTokens: Math.ceil(summary.length / 4), cacheReadTokens: 0 } });
      const checkpoint = { content: [{ type: "text", text: "This is an automatically generated checkpoint condensing an earlier span of the conversation to free up context.\n\n<compacted-summary>" }, { type: "text", text: summary }, { type: "text", text: "</compacted-summary>" }], source: { kind: "plugin", plugin: "compact", compactionId, sourceCommandId: commandId }, role: "user", id: id() };
      const checkpointSeq = event("user/message", checkpoint, { sourceEventSeqs: [start, summarySeq, ...surface], surfaceOp: { op: "replace", start: surface[0], end: surface[surface.length - 1] } });
      event("compaction/end", { compactionId, sourceCommandId: commandId, turn: null });
      event("command/done", { commandId, kind: "success", text: `Compacted ${surface.length} history items.`, sourceEventSeq: summarySeq });
      surface = [checkpointSeq];
      needsRuntime = true;
      compactions++;
      contextChars = 30_000 + summary.length;
      untilCompaction = planner.callsPerCompaction();
    }
  }
  const bytes = out.close();
  return { agent: "deepseek-harness", file, files: [file], bytes, turns, compactions, subagents: 0 };
}

const WRITERS: Record<GeneratedAgent, (options: AgentSessionOptions, draw: Draw, shapes: AgentShapes) => AgentSession> = {
  "claude-code": writeClaude,
  codex: writeCodex,
  "gemini-cli": writeGemini,
  "qwen-code": writeQwen,
  "deepseek-harness": writeDeepseekHarness,
};

/** Writes one generated session of `agent` of at least `minBytes` (main file) into a new temporary folder. */
export function generateAgentSession(agent: GeneratedAgent, options: AgentSessionOptions): AgentSession {
  const shapes = shapesFor(agent);
  const draw = new Draw(options.seed ?? 1, shapes.nonAscii);
  return WRITERS[agent](options, draw, shapes);
}

if (ranAsScript(import.meta.url)) {
  const agent = process.argv[2] as GeneratedAgent;
  if (!GENERATED_AGENTS.includes(agent)) throw new Error(`agent must be one of ${GENERATED_AGENTS.join(", ")}`);
  const arg = (name: string) => {
    const at = process.argv.indexOf(name);
    return at === -1 ? null : process.argv[at + 1]!;
  };
  const result = generateAgentSession(agent, { minBytes: Number(arg("--mb") ?? 10) * 1024 * 1024, seed: Number(arg("--seed") ?? 1) });
  console.log(JSON.stringify({ ...result, files: result.files.length }));
}
