// hermes-agent's phase 1, pruning without a model (compaction-policies.md CP-HA-8), as
// `ContextCompressor._prune_old_tool_results` in agent/context_compressor.py (NousResearch/
// hermes-agent at 0000416b34a3dad10c39446ab62c6626c609c30f) does it, before the head/tail
// partition: (1) identical tool results of ≥ 200 chars deduplicated across the whole list, the
// newest kept; (2) tool results over 200 chars before the prune boundary replaced by a one-line
// summary (image parts by a placeholder); (3) tool-call arguments over 500 chars before the
// boundary shrunk inside their JSON; (4) a pressure pass inside the protected tail when it
// exceeds 1.5 × its budget, always keeping the last 3 messages.
import { parseNestedJson } from "../../../util/json-depth";
import { cpHead, cpLength, pyInt } from "./codepoints";
import { hermesContentText, type HermesMessage, type HermesPart } from "./messages";
import { hermesMessageTokens } from "./partition";
import { oneLineToolSummary } from "./tool-summary";

export const DUPLICATE_TOOL_OUTPUT = "[Duplicate tool output — same content as a more recent call]";
/** Placeholder for an image part of an old tool result (`_strip_image_parts_from_parts`). */
export const SCREENSHOT_REMOVED = "[screenshot removed to save context]";
/** Tool results at least this long take part in dedup; longer ones are demoted. */
const PRUNE_MIN_CHARS = 200;
/** Arguments longer than this are shrunk; string leaves are cut to 200 chars. */
const ARGS_SHRINK_MIN_CHARS = 500;
const ARGS_HEAD_CHARS = 200;
/** `_MAX_TAIL_MESSAGE_FLOOR` and `_PRESSURE_KEEP_RECENT_MESSAGES`. */
const MAX_TAIL_MESSAGE_FLOOR = 8;
const PRESSURE_KEEP_RECENT = 3;

type PruneReason = "duplicate" | "one-line-summary" | "image-placeholder" | "arguments-shrunk";

interface PrunedSpan {
  index: number;
  replacement: string;
  originalChars: number;
  reason: PruneReason;
  /** True when the pressure pass (inside the protected tail) made the change. */
  pressure: boolean;
}

export interface PruneOptions {
  protectLastN: number;
  /** `tail_token_budget`; the protected region is walked with it (CP-HA-10 estimates). */
  tailTokenBudget: number;
}

export interface PruneResult {
  messages: HermesMessage[];
  pruned: PrunedSpan[];
  /** Messages [0, boundary) are outside the protected tail of the prune pass. */
  boundary: number;
  pressurePass: boolean;
}

/** The prune boundary: token walk from the end, message floor min(protect_last_n, n, 8). */
export function pruneBoundary(messages: readonly HermesMessage[], options: PruneOptions): number {
  const n = messages.length;
  if (options.tailTokenBudget <= 0) return Math.max(0, n - options.protectLastN);
  const minProtect = Math.min(options.protectLastN, n, MAX_TAIL_MESSAGE_FLOOR);
  let accumulated = 0;
  let boundary = n;
  for (let i = n - 1; i >= 0; i--) {
    const tokens = hermesMessageTokens(messages[i] as HermesMessage);
    // hermes sets the boundary to the message that overflows, which stays protected.
    boundary = i;
    if (accumulated + tokens > options.tailTokenBudget && n - i >= minProtect) break;
    accumulated += tokens;
  }
  return n - Math.max(n - boundary, minProtect);
}

/** Python `json.dumps(value, ensure_ascii=False)`: `", "` and `": "` separators. */
function pyJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${JSON.stringify(k)}: ${pyJsonDumps(v)}`).join(", ")}}`;
  }
  return "null";
}

/**
 * `_truncate_tool_call_args_json`: string leaves over 200 chars become their first 200 chars +
 * `...[truncated]`, re-serialised as valid JSON; arguments that are not JSON stay unchanged.
 */
export function shrinkToolArguments(args: string): string {
  let parsed: unknown;
  try {
    parsed = parseNestedJson(args);
  } catch {
    return args;
  }
  const shrink = (value: unknown): unknown => {
    if (typeof value === "string") return cpLength(value) > ARGS_HEAD_CHARS ? `${cpHead(value, ARGS_HEAD_CHARS)}...[truncated]` : value;
    if (Array.isArray(value)) return value.map(shrink);
    if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, shrink(v)]));
    return value;
  };
  return pyJsonDumps(shrink(parsed));
}

function textOnly(content: string | HermesPart[]): string | null {
  if (typeof content === "string") return content;
  // Our tool results are part lists; a list of text parts is hermes' string content.
  return content.every((part) => part.type === "text") ? content.map((part) => part.text ?? "").join("") : null;
}

export function pruneToolOutputs(messages: readonly HermesMessage[], options: PruneOptions): PruneResult {
  const out = messages.map((message) => ({ ...message }));
  const pruned: PrunedSpan[] = [];
  const n = out.length;
  const calls = new Map<string, { name: string; arguments: string }>();
  for (const message of messages) for (const call of message.toolCalls ?? []) calls.set(call.id, call);
  const boundary = pruneBoundary(messages, options);
  let pressure = false;

  // Pass 1: identical tool results anywhere (lossless), newest kept.
  const seen = new Set<string>();
  for (let i = n - 1; i >= 0; i--) {
    const message = out[i] as HermesMessage;
    if (message.role !== "tool") continue;
    const text = textOnly(message.content);
    if (text === null || cpLength(text) < PRUNE_MIN_CHARS) continue;
    if (seen.has(text)) {
      message.content = DUPLICATE_TOOL_OUTPUT;
      pruned.push({ index: i, replacement: DUPLICATE_TOOL_OUTPUT, originalChars: cpLength(text), reason: "duplicate", pressure: false });
    } else seen.add(text);
  }

  const demote = (i: number): boolean => {
    const message = out[i] as HermesMessage;
    if (message.role !== "tool") return false;
    const text = textOnly(message.content);
    if (text === null) {
      const parts = message.content as HermesPart[];
      if (!parts.some((part) => part.type === "image_url")) return false;
      message.content = parts.map((part) => (part.type === "image_url" ? { type: "text", text: SCREENSHOT_REMOVED } : part));
      pruned.push({ index: i, replacement: SCREENSHOT_REMOVED, originalChars: cpLength(hermesContentText({ ...message, content: parts })), reason: "image-placeholder", pressure });
      return true;
    }
    if (text === "" || text.startsWith("[Duplicate tool output") || text.startsWith("[screenshot removed")) return false;
    // Already a one-line summary from an earlier pass.
    if (text.startsWith("[") && text.includes(" chars)") && cpLength(text) < 400) return false;
    if (cpLength(text) <= PRUNE_MIN_CHARS) return false;
    const call = calls.get(message.toolCallId ?? "");
    const replacement = oneLineToolSummary(call?.name ?? "unknown", call?.arguments ?? "", text);
    message.content = replacement;
    pruned.push({ index: i, replacement, originalChars: cpLength(text), reason: "one-line-summary", pressure });
    return true;
  };

  const shrinkArgs = (i: number): boolean => {
    const message = out[i] as HermesMessage;
    if (message.role !== "assistant" || !message.toolCalls || message.toolCalls.length === 0) return false;
    let changed = false;
    const next = message.toolCalls.map((call) => {
      if (cpLength(call.arguments) <= ARGS_SHRINK_MIN_CHARS) return call;
      const shrunk = shrinkToolArguments(call.arguments);
      if (shrunk === call.arguments) return call;
      changed = true;
      pruned.push({ index: i, replacement: `${call.name}(${shrunk.slice(0, 120)}…)`, originalChars: cpLength(call.arguments), reason: "arguments-shrunk", pressure });
      return { ...call, arguments: shrunk };
    });
    if (changed) message.toolCalls = next;
    return changed;
  };

  // Passes 2 and 3: outside the protected tail.
  for (let i = 0; i < Math.max(0, boundary); i++) demote(i);
  for (let i = 0; i < Math.max(0, boundary); i++) shrinkArgs(i);

  // Pass 4: pressure inside the protected tail.
  if (options.tailTokenBudget > 0 && n > 0) {
    const soft = pyInt(options.tailTokenBudget * 1.5);
    const demoteEnd = n - Math.min(PRESSURE_KEEP_RECENT, n);
    const regionTokens = () => out.slice(Math.max(0, boundary)).reduce((sum, m) => sum + hermesMessageTokens(m), 0);
    if (demoteEnd > boundary && regionTokens() > soft) {
      pressure = true;
      for (let i = Math.max(0, boundary); i < demoteEnd; i++) {
        demote(i);
        shrinkArgs(i);
        if (regionTokens() <= soft) break;
      }
      if (regionTokens() > soft) {
        let lastTool = -1;
        for (let i = n - 1; i >= 0; i--) {
          if (out[i]?.role === "tool") {
            lastTool = i;
            break;
          }
        }
        for (let i = Math.max(0, boundary); i < n; i++) {
          if (i === lastTool) continue;
          if (out[i]?.role === "tool") demote(i);
          else if (out[i]?.role === "assistant") shrinkArgs(i);
        }
        if (lastTool >= boundary && regionTokens() > soft) demote(lastTool);
      }
    }
  }
  pruned.sort((a, b) => a.index - b.index);
  return { messages: out, pruned, boundary, pressurePass: pressure };
}
