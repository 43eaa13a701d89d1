// senpi's deterministic context reduction near the limit (SP-C7 … SP-C10): before every main
// request, senpi's built-in compaction extension rewrites the context when the context usage is at
// least half the model's context window — runs of same-kind tool results collapse to one label,
// long old assistant answers are shrunk, and all but the six newest clearable tool results become
// `[tool result cleared]`. Nothing of this is written to the session file; it follows from the
// recorded usage, the messages and the model's context window, so it is rebuilt here.
// Source: code-yeongyu/senpi 8218060f packages/coding-agent/src/core/extensions/builtin/compaction/
// context-reduction.ts (transforms, options, gate) and index.ts:868-892 (the `context` hook).
import type { ContextMessage, LlmMessage, TextBlock, ImageBlock, ToolResultMessage, AssistantMessage } from "../../model";
import { isText, textString, textUnits, type Text } from "../../text/text";

const READ_TOOLS = ["read", "Read", "read_file"];
const SEARCH_TOOLS = ["grep", "Grep", "glob", "Glob"];
const SHELL_TOOLS = ["bash", "Bash", "shell", "shell_execute"];
/** context-reduction.ts:27-42. `shell_execute` is collapsible but not clearable (as in the source). */
const CLEARABLE_TOOLS = ["read", "Read", "read_file", "write", "Write", "edit", "Edit", "grep", "Grep", "glob", "Glob", "bash", "Bash", "shell"];

export const TOOL_RESULT_CLEARED = "[tool result cleared]";
const SHRUNK_TEMPLATE = "[response shrunk — {original_tokens} → {shrunk_tokens} tokens]";
const MAX_HINTS_IN_LABEL = 5;
const MAX_HINT_LENGTH = 80;
const SHRUNK_RESPONSE_RATIO = 0.3;

/** BUILTIN_CONTEXT_REDUCTION_OPTIONS (context-reduction.ts:130-143) and the gate ratio (:145). */
export interface SenpiReductionOptions {
  gateRatio: number;
  collapseMinGroupSize: number;
  collapseProtectRecentMessages: number;
  shrinkProtectRecentTokens: number;
  shrinkMaxAssistantTextTokens: number;
  shrinkMinSavingsTokens: number;
  clearKeepRecent: number;
}

const SENPI_REDUCTION_DEFAULTS: SenpiReductionOptions = {
  gateRatio: 0.5,
  collapseMinGroupSize: 2,
  collapseProtectRecentMessages: 5,
  shrinkProtectRecentTokens: 3000,
  shrinkMaxAssistantTextTokens: 800,
  shrinkMinSavingsTokens: 100,
  clearKeepRecent: 6,
};

export interface SenpiReductionResult {
  messages: ContextMessage[];
  groupsCollapsed: number;
  messagesShrunk: number;
  toolResultsCleared: number;
  tokensSaved: number;
}

function approx(text: string): number {
  return approxUnits(text.length);
}

/** `approx` of a text of this many UTF-16 units (only sizes are measured: stored texts stay undecoded). */
function approxUnits(units: number): number {
  return Math.ceil(units / 4);
}

/** Length of `extractMessageText`'s text of a content: its text parts concatenated. */
function contentUnits(content: Text | readonly (TextBlock | ImageBlock | { type: string })[]): number {
  if (isText(content)) return textUnits(content);
  let units = 0;
  for (const part of content) if (part.type === "text") units += textUnits((part as TextBlock).text);
  return units;
}

/**
 * `extractMessageText` (context-reduction.ts:176-199). senpi runs the reduction on its own message
 * list before conversion, where summaries, bash runs and custom messages are not `user` messages
 * and count nothing; here they are user messages with a synthesising provenance.
 */
function messageUnits(item: ContextMessage): number {
  const m = item.message;
  if (m.role === "user") return item.provenance.rule === "entry" ? contentUnits(m.content) : 0;
  if (m.role === "assistant") {
    let units = 0;
    for (const block of m.content) {
      if (block.type === "text") units += textUnits(block.text);
      else if (block.type === "toolCall") units += block.name.length + 1 + JSON.stringify(block.arguments).length;
    }
    return units;
  }
  return contentUnits(m.content);
}

function reduced(item: ContextMessage, message: LlmMessage, rule: string, ruleId: string, explanation: string): ContextMessage {
  return { message, provenance: { ...item.provenance, rule, ruleId, explanation } };
}

type Kind = "read" | "search" | "shell";

function kindOf(name: string): Kind | null {
  if (READ_TOOLS.includes(name)) return "read";
  if (SEARCH_TOOLS.includes(name)) return "search";
  if (SHELL_TOOLS.includes(name)) return "shell";
  return null;
}

function truncateHint(value: string): string {
  return value.length <= MAX_HINT_LENGTH ? value : `${value.slice(0, MAX_HINT_LENGTH - 1)}…`;
}

/** `extractHint` (context-reduction.ts:238-259). */
function hintOf(kind: Kind, args: Record<string, unknown>): string | undefined {
  if (kind === "read") {
    const path = args.path ?? args.file_path ?? args.filePath;
    return typeof path === "string" && path.length > 0 ? truncateHint(path) : undefined;
  }
  if (kind === "search") {
    const path = typeof args.path === "string" ? args.path : undefined;
    const pattern =
      (typeof args.pattern === "string" && args.pattern) || (typeof args.glob === "string" && args.glob) || (typeof args.query === "string" && args.query) || undefined;
    if (path && pattern) return truncateHint(`${path}:${pattern}`);
    if (path) return truncateHint(path);
    return pattern ? truncateHint(pattern) : undefined;
  }
  const command = args.command ?? args.cmd;
  return typeof command === "string" && command.length > 0 ? truncateHint(command) : undefined;
}

interface Operation {
  kind: Kind;
  assistantIndex: number;
  resultIndex: number;
  hint?: string;
  resultUnits: number;
}

function labelOf(kind: Kind, ops: Operation[]): string {
  const hints: string[] = [];
  for (const op of ops) if (op.hint && hints.length < MAX_HINTS_IN_LABEL) hints.push(op.hint);
  const noun = kind === "read" ? "read results" : kind === "search" ? "search results" : "shell results";
  if (hints.length === 0) return `[${ops.length} ${noun}]`;
  const more = ops.length - hints.length;
  return `[${ops.length} ${noun}: ${hints.join(", ")}${more > 0 ? `, and ${more} more` : ""}]`;
}

function imagesOf(message: ToolResultMessage): ImageBlock[] {
  return message.content.filter((c): c is ImageBlock => c.type === "image");
}

/**
 * SP-C8 `collapseConsecutiveToolResults` (context-reduction.ts:331-380): an assistant message whose
 * FIRST tool call is answered by the very next message is an operation; adjacent operations of one
 * kind (read / search / shell) form a group; groups of two or more outside the newest five messages
 * get the group label as every result's text (images kept).
 */
function collapse(items: ContextMessage[], o: SenpiReductionOptions): { items: ContextMessage[]; groups: number; saved: number } {
  const limit = Math.max(0, items.length - Math.max(0, o.collapseProtectRecentMessages));
  const ops: Operation[] = [];
  let i = 0;
  while (i < limit) {
    const m = items[i]!.message;
    const call = m.role === "assistant" ? m.content.find((b) => b.type === "toolCall") : undefined;
    const next = items[i + 1]?.message;
    if (!call || call.type !== "toolCall" || next?.role !== "toolResult" || next.toolCallId !== call.id || !(i + 1 < limit)) {
      i += 1;
      continue;
    }
    const kind = kindOf(call.name);
    if (!kind) {
      i += 1;
      continue;
    }
    ops.push({ kind, assistantIndex: i, resultIndex: i + 1, hint: hintOf(kind, (call.arguments ?? {}) as Record<string, unknown>), resultUnits: contentUnits(next.content) });
    i += 2;
  }
  const groups: Operation[][] = [];
  for (const op of ops) {
    const current = groups[groups.length - 1];
    const prev = current?.[current.length - 1];
    if (current && prev && op.kind === prev.kind && op.assistantIndex === prev.resultIndex + 1) current.push(op);
    else groups.push([op]);
  }
  const out = items.slice();
  let collapsed = 0;
  let saved = 0;
  for (const group of groups) {
    if (group.length < Math.max(1, o.collapseMinGroupSize)) continue;
    const label = labelOf(group[0]!.kind, group);
    let original = 0;
    for (const op of group) {
      original += approxUnits(op.resultUnits);
      const item = out[op.resultIndex]!;
      const result = item.message as ToolResultMessage;
      out[op.resultIndex] = reduced(item, { ...result, content: [{ type: "text", text: label }, ...imagesOf(result)] }, "reduce:collapsed", "SP-C8", `senpi collapsed ${group.length} consecutive ${group[0]!.kind} results into one label (context reduction at ≥ ${o.gateRatio} × window)`);
    }
    saved += Math.max(0, original - approx(label) * group.length);
    collapsed += 1;
  }
  return { items: out, groups: collapsed, saved };
}

/** `resolveProtectedFromIndex` (context-reduction.ts:382-392). */
function protectedFrom(items: ContextMessage[], protectTokens: number): number {
  if (items.length === 0) return 0;
  let recent = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    const tokens = approxUnits(messageUnits(items[i]!));
    if (recent + tokens > protectTokens) return i + 1;
    recent += tokens;
    if (i === 0) return 0;
  }
  return items.length;
}

function render(originalTokens: number, shrunkTokens: number): string {
  return SHRUNK_TEMPLATE.split("{original_tokens}").join(String(originalTokens)).split("{shrunk_tokens}").join(String(shrunkTokens));
}

/** `buildShrunkText` (context-reduction.ts:402-423): truncate to 30 % of the cap, then a fixed point for the marker. */
function shrunkText(text: string, originalTokens: number, maxTokens: number): { text: string; tokens: number } {
  const target = Math.max(1, Math.floor(maxTokens * SHRUNK_RESPONSE_RATIO));
  const ratio = originalTokens > 0 ? target / originalTokens : 0;
  const kept = text.slice(0, Math.max(0, Math.floor(text.length * ratio)));
  let tokens = 0;
  let out = "";
  for (let iteration = 0; iteration < 5; iteration += 1) {
    const candidate = kept.length > 0 ? `${kept}\n\n${render(originalTokens, tokens)}` : render(originalTokens, tokens);
    const t = approx(candidate);
    out = candidate;
    if (t === tokens) return { text: candidate, tokens: t };
    tokens = t;
  }
  return { text: out, tokens: approx(out) };
}

/**
 * SP-C9 `microCompactAssistantText` (context-reduction.ts:425-460): outside the newest 3000 tokens,
 * an all-text assistant answer over 800 tokens becomes its head plus a `[response shrunk …]` marker
 * when that saves at least 100 tokens.
 */
function shrink(items: ContextMessage[], o: SenpiReductionOptions): { items: ContextMessage[]; shrunk: number; saved: number } {
  const until = protectedFrom(items, Math.max(0, o.shrinkProtectRecentTokens));
  const out = items.slice();
  let shrunk = 0;
  let saved = 0;
  for (let i = 0; i < until; i++) {
    const item = out[i]!;
    const m = item.message;
    if (m.role !== "assistant") continue;
    if (!(m.content.length > 0 && m.content.every((c) => c.type === "text"))) continue;
    const texts = m.content.map((c) => (c.type === "text" ? c.text : ""));
    const tokens = approxUnits(texts.reduce((sum, text) => sum + textUnits(text), texts.length - 1));
    if (tokens <= o.shrinkMaxAssistantTextTokens) continue;
    // Shrinking cuts the answer's characters: only an answer that is shrunk is decoded.
    const result = shrunkText(texts.map(textString).join("\n"), tokens, o.shrinkMaxAssistantTextTokens);
    if (tokens - result.tokens < o.shrinkMinSavingsTokens) continue;
    const message: AssistantMessage = { ...m, content: [{ type: "text", text: result.text }] };
    out[i] = reduced(item, message, "reduce:shrunk", "SP-C9", `senpi shrank this answer from ${tokens} to ${result.tokens} tokens (context reduction at ≥ ${o.gateRatio} × window)`);
    shrunk += 1;
    saved += tokens - result.tokens;
  }
  return { items: out, shrunk, saved };
}

const clearedMessages = new WeakMap<ToolResultMessage, ToolResultMessage>();

/**
 * SP-C10 `clearOldToolResults` (context-reduction.ts:462-506): of the tool results of clearable
 * tools, all but the newest `keepRecent` (6) get the text `[tool result cleared]` (images kept).
 */
function clear(items: ContextMessage[], o: SenpiReductionOptions): { items: ContextMessage[]; cleared: number; saved: number } {
  const clearable: number[] = [];
  items.forEach((item, i) => {
    if (item.message.role === "toolResult" && CLEARABLE_TOOLS.includes(item.message.toolName)) clearable.push(i);
  });
  const until = Math.max(0, clearable.length - Math.max(0, o.clearKeepRecent));
  const out = items.slice();
  let saved = 0;
  for (let k = 0; k < until; k++) {
    const index = clearable[k]!;
    const item = out[index]!;
    const result = item.message as ToolResultMessage;
    saved += Math.max(0, approxUnits(contentUnits(result.content)) - approx(TOOL_RESULT_CLEARED));
    // One cleared message per stored result: every later turn sends the same object, so what is
    // measured of it (sizes, estimates) is measured once.
    let cleared = clearedMessages.get(result);
    if (!cleared) {
      cleared = { ...result, content: [{ type: "text", text: TOOL_RESULT_CLEARED }, ...imagesOf(result)] };
      clearedMessages.set(result, cleared);
    }
    out[index] = reduced(item, cleared, "reduce:tool-result-cleared", "SP-C10", `senpi cleared this tool result: only the newest ${o.clearKeepRecent} clearable tool results are sent in full (context reduction at ≥ ${o.gateRatio} × window)`);
  }
  return { items: out, cleared: until, saved };
}

/** `reduceContextMessages` (context-reduction.ts:508-538): collapse, shrink, clear, in this order. */
export function reduceSenpiContext(items: ContextMessage[], options: Partial<SenpiReductionOptions> = {}): SenpiReductionResult {
  const o = { ...SENPI_REDUCTION_DEFAULTS, ...options };
  const a = collapse(items, o);
  const b = shrink(a.items, o);
  const c = clear(b.items, o);
  return { messages: c.items, groupsCollapsed: a.groups, messagesShrunk: b.shrunk, toolResultsCleared: c.cleared, tokensSaved: a.saved + b.saved + c.saved };
}

/**
 * SP-C7 gate `shouldApplyContextReduction` (context-reduction.ts:154-160): usage ≥ gateRatio ×
 * window, never on the OpenAI remote-compaction path (openai-remote-model.ts:62-70: provider
 * `openai` with api `openai-responses`, or `openai-codex`) nor on the claude-sdk-oauth lane
 * (lane-policy.ts:87-104, whose default resume mode hands compaction to the SDK).
 */
export function senpiReductionApplies(usageTokens: number | null, contextWindow: number, provider: string | undefined, api: string | undefined, gateRatio = SENPI_REDUCTION_DEFAULTS.gateRatio): boolean {
  if (provider === "claude-sdk-oauth") return false;
  if ((provider === "openai" && api === "openai-responses") || provider === "openai-codex") return false;
  if (usageTokens === null || contextWindow <= 0) return false;
  return usageTokens >= contextWindow * gateRatio;
}
