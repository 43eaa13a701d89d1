// Builds a pi session file (format version 3) entry by entry, exactly in pi's entry and message
// shapes: ids, parent links, timestamps, usage with cost, tool calls and results, user bash
// commands, branches and compactions. Everything is derived from a seeded generator, so the same
// script always writes the same bytes. Compactions use Contextscope's own pi compaction code, so
// `firstKeptEntryId`, `tokensBefore` and the file lists follow pi's rules (spec §5).
import type { AgentMessage, SessionEntry } from "../../src/core/model";
import {
  assembleCompactionSummary,
  DEFAULT_COMPACTION_SETTINGS,
  estimateContextTokens,
  prepareCompaction,
  type CompactionPreparation,
} from "../../src/core/agents/pi/compaction";
import { projectPath } from "../../src/core/agents/pi/projection";
import { estimateMessageTokens } from "../../src/core/agents/pi/estimate";
import { seededRandom } from "../../src/core/util/seeded-random";

export { seededRandom };


const HEX = "0123456789abcdef";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Prices in dollars per million tokens. */
interface Pricing {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface BuilderOptions {
  seed: number;
  /** ISO time of the session header. */
  start: string;
  cwd: string;
  provider: string;
  model: string;
  api: "anthropic-messages" | "openai-completions";
  thinkingLevel: string;
  pricing: Pricing;
  /** Tokens of the system prompt and tool definitions (not in the file, but in every request). */
  promptOverheadTokens: number;
}

export type ToolStep = { name: string; args: Record<string, unknown>; result: string; isError?: boolean };

interface Built {
  entry: SessionEntry;
  line: Record<string, unknown>;
}

export class SessionBuilder {
  private readonly random: () => number;
  private readonly options: BuilderOptions;
  private clock: number;
  private readonly built: Built[] = [];
  private readonly byId = new Map<string, Built>();
  private readonly header: Record<string, unknown>;
  /** Entry the next entry is appended to. */
  leafId: string | null = null;
  /** Prompt tokens of the previous request on this path (for cache reads). */
  private previousPrompt = 0;

  constructor(options: BuilderOptions) {
    this.options = options;
    this.random = seededRandom(options.seed);
    this.clock = Date.parse(options.start);
    this.header = { type: "session", version: 3, id: this.uuid(), timestamp: this.iso(), cwd: options.cwd };
    this.advance(18, 30);
    this.append({ type: "model_change", provider: options.provider, modelId: options.model });
    this.append({ type: "thinking_level_change", thinkingLevel: options.thinkingLevel });
  }

  // --- identifiers and time -------------------------------------------------------------------

  private pick(alphabet: string, length: number): string {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.random() * alphabet.length)];
    return out;
  }
  private uuid(): string {
    const hex = this.pick(HEX, 32);
    // Version 7 layout, as pi writes: time-ordered, variant bits 10.
    const ms = this.clock.toString(16).padStart(12, "0");
    return `${ms.slice(0, 8)}-${ms.slice(8, 12)}-7${hex.slice(0, 3)}-${"89ab"[Math.floor(this.random() * 4)]}${hex.slice(3, 6)}-${hex.slice(6, 18)}`;
  }
  private entryId(): string {
    let id = this.pick(HEX, 8);
    while (this.byId.has(id)) id = this.pick(HEX, 8);
    return id;
  }
  private iso(): string {
    return new Date(this.clock).toISOString();
  }
  /** Moves the clock forward by a random time between min and max milliseconds. */
  advance(min: number, max: number): void {
    this.clock += Math.round(min + this.random() * (max - min));
  }
  private toolCallId(): string {
    return this.options.api === "anthropic-messages" ? `toolu_01${this.pick(BASE62, 22)}` : `call_${this.pick(BASE62, 24)}`;
  }
  private responseId(): string {
    return this.options.api === "anthropic-messages" ? `msg_01${this.pick(BASE62, 22)}` : `chatcmpl-${this.pick(BASE62, 29)}`;
  }

  // --- entries --------------------------------------------------------------------------------

  private append(fields: Record<string, unknown>): string {
    const id = this.entryId();
    const { type, ...rest } = fields;
    const line = { type, id, parentId: this.leafId, timestamp: this.iso(), ...rest };
    const entry: SessionEntry = {
      id,
      parentId: this.leafId,
      type: String(type),
      timestamp: line.timestamp,
      line: this.built.length + 2,
      raw: line,
    };
    const built = { entry, line };
    this.built.push(built);
    this.byId.set(id, built);
    this.leafId = id;
    return id;
  }

  private path(): SessionEntry[] {
    const out: SessionEntry[] = [];
    let id = this.leafId;
    while (id) {
      const built = this.byId.get(id)!;
      out.push(built.entry);
      id = built.entry.parentId;
    }
    return out.reverse();
  }

  /** Continues from an older entry: the next entry starts a new branch there (PI-F7). */
  checkout(entryId: string): void {
    if (!this.byId.has(entryId)) throw new Error(`unknown entry ${entryId}`);
    this.leafId = entryId;
    this.previousPrompt = 0;
  }

  user(text: string): string {
    this.advance(20000, 95000);
    const timestamp = this.clock;
    this.advance(2, 4);
    return this.append({ type: "message", message: { role: "user", content: [{ type: "text", text }], timestamp } });
  }

  /** A command the user ran with `!` (bashExecution, PI-F12). */
  bash(command: string, output: string, exitCode = 0): string {
    this.advance(8000, 30000);
    const timestamp = this.clock;
    this.advance(40, 900);
    return this.append({
      type: "message",
      message: { role: "bashExecution", command, output, exitCode, cancelled: false, truncated: false, timestamp },
    });
  }

  private usage(content: unknown[]): Record<string, unknown> {
    const context = projectPath(this.path(), "pi").messages.map((m) => m.message);
    let prompt = this.options.promptOverheadTokens;
    for (const message of context) prompt += estimateMessageTokens(message, { profile: "pi" });
    const output = estimateMessageTokens({ role: "assistant", content } as AgentMessage, { profile: "pi" }) + 8;
    let input: number;
    let cacheRead: number;
    let cacheWrite: number;
    if (this.options.api === "anthropic-messages") {
      // pi marks the system prompt and the last user block: everything before is read or written.
      cacheRead = this.previousPrompt > 0 ? Math.min(this.previousPrompt, prompt) : 0;
      input = 3 + Math.floor(this.random() * 6);
      cacheWrite = Math.max(0, prompt - cacheRead - input);
    } else {
      // OpenAI caches prompt prefixes of 1024+ tokens in 128-token steps.
      cacheRead = this.previousPrompt >= 1024 ? Math.floor(Math.min(this.previousPrompt, prompt) / 128) * 128 : 0;
      cacheWrite = 0;
      input = prompt - cacheRead;
    }
    this.previousPrompt = prompt;
    const p = this.options.pricing;
    const cost = {
      input: (input * p.input) / 1e6,
      output: (output * p.output) / 1e6,
      cacheRead: (cacheRead * p.cacheRead) / 1e6,
      cacheWrite: (cacheWrite * p.cacheWrite) / 1e6,
      total: 0,
    };
    cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
    return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost };
  }

  private assistant(content: unknown[], stopReason: string): string {
    this.advance(400, 1500);
    const timestamp = this.clock;
    const usage = this.usage(content);
    this.advance(1200, 9000);
    return this.append({
      type: "message",
      message: {
        role: "assistant",
        content,
        api: this.options.api,
        provider: this.options.provider,
        model: this.options.model,
        usage,
        stopReason,
        timestamp,
        responseId: this.responseId(),
      },
    });
  }

  /** One provider call that asks for tools (optionally with a lead-in text), then their results. */
  tools(text: string | null, steps: ToolStep[]): string {
    const calls = steps.map((step) => ({ type: "toolCall", id: this.toolCallId(), name: step.name, arguments: step.args }));
    const content = text ? [{ type: "text", text }, ...calls] : calls;
    const assistantId = this.assistant(content, "toolUse");
    steps.forEach((step, i) => {
      this.advance(15, 2500);
      this.append({
        type: "message",
        message: {
          role: "toolResult",
          toolCallId: calls[i]!.id,
          toolName: step.name,
          content: [{ type: "text", text: step.result }],
          isError: step.isError ?? false,
          timestamp: this.clock,
        },
      });
    });
    return assistantId;
  }

  /** The final text answer of a prompt. */
  reply(text: string): string {
    return this.assistant([{ type: "text", text }], "stop");
  }

  /**
   * A `/compact` with pi's default settings: cut, file lists and tokensBefore from the path;
   * the summary texts are the ones the summariser would have answered.
   */
  compact(texts: (prep: CompactionPreparation) => { history: string; turnPrefix?: string }): CompactionPreparation {
    const path = this.path();
    const prep = prepareCompaction(path, DEFAULT_COMPACTION_SETTINGS, { profile: "pi" });
    if (!prep) throw new Error("nothing to compact");
    const tokensBefore = estimateContextTokens(projectPath(path, "pi").messages.map((m) => m.message)).tokens;
    const written = texts(prep);
    const historyMade = !(prep.isSplitTurn && prep.turnPrefixMessages.length > 0) || prep.messagesToSummarize.length > 0;
    const summary = assembleCompactionSummary({
      historyText: historyMade ? written.history : null,
      turnPrefixText: prep.isSplitTurn && prep.turnPrefixMessages.length > 0 ? (written.turnPrefix ?? "") : null,
      fileLists: prep.fileLists,
    });
    this.advance(6000, 14000);
    this.append({
      type: "compaction",
      summary,
      firstKeptEntryId: prep.firstKeptEntryId,
      tokensBefore,
      details: { readFiles: prep.fileLists.readFiles, modifiedFiles: prep.fileLists.modifiedFiles },
      fromHook: false,
    });
    this.previousPrompt = 0;
    return prep;
  }

  /** The JSONL text: header, then every entry in append order. */
  toJsonl(): string {
    return [this.header, ...this.built.map((b) => b.line)].map((line) => JSON.stringify(line)).join("\n") + "\n";
  }
}
