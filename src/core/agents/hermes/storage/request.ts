// The Chat Completions body hermes-agent sends for one API call, rebuilt from stored messages
// (hermes-storage.md HS-37 … HS-42, HS-48). Per message, a copy of hermes' dict: assistant
// `reasoning` → `reasoning_content`, then `reasoning`, `finish_reason`, `_thinking_prefill` and
// every `_`-key popped; `reasoning_details` kept (OpenRouter replays it); Codex bookkeeping in
// tool calls (`call_id`, `response_item_id`) stripped only for strict providers (Mistral,
// Fireworks) — as run_agent.py's api_messages loop at K (kshitijk4poor/hermes-agent@4b2f865e).
// A schema-30 `api_content` replaces a user row's content (HS-21). The system message is the
// stored prompt at index 0 (HS-37); `system_and_3` cache markers for Claude via OpenRouter or
// Anthropic (HS-42); then every string content stripped and tool-call arguments re-serialized
// the way Python's `json.dumps(obj, separators=(",", ":"), sort_keys=True)` writes them (HS-39).
import { parseNestedJson } from "../../../util/json-depth";
import { isObject } from "../../../util/is-object";
import type { HermesRowInfo } from "./rows";

export interface HermesRequestTarget {
  model: string | null;
  baseUrl: string | null;
  systemPrompt: string | null;
  tools: unknown[] | null;
}

/** The ephemeral marker of `system_and_3` (5-minute TTL, HS-42). */
const CACHE_MARKER = { type: "ephemeral" } as const;

/** HS-42: prompt caching applies to Claude models via OpenRouter or Anthropic (`_use_prompt_caching`). */
function usesPromptCaching(target: HermesRequestTarget): boolean {
  const model = (target.model ?? "").toLowerCase();
  if (!model.includes("claude")) return false;
  const base = (target.baseUrl ?? "").toLowerCase();
  return base === "" || base.includes("openrouter") || base.includes("anthropic");
}

/** Strict providers reject the Codex fields of tool calls (run_agent.py `_sanitize_tool_calls_for_strict_api`). */
function isStrictProvider(baseUrl: string | null): boolean {
  const base = (baseUrl ?? "").toLowerCase();
  return base.includes("api.mistral.ai") || base.includes("fireworks.ai");
}

/** Python's `json.dumps` string escaping with the default `ensure_ascii=True`. */
function pythonString(value: string): string {
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (char === '"') out += '\\"';
    else if (char === "\\") out += "\\\\";
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (char === "\b") out += "\\b";
    else if (char === "\f") out += "\\f";
    else if (code < 0x20 || (code >= 0x7f && code <= 0xffff)) out += `\\u${code.toString(16).padStart(4, "0")}`;
    else if (code > 0xffff) {
      const high = Math.floor((code - 0x10000) / 0x400) + 0xd800;
      const low = ((code - 0x10000) % 0x400) + 0xdc00;
      out += `\\u${high.toString(16)}\\u${low.toString(16)}`;
    } else out += char;
  }
  return `${out}"`;
}

/** `json.dumps(value, separators=(",", ":"), sort_keys=True)` for JSON values. */
function pythonCanonicalJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return pythonString(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return value > 0 ? "Infinity" : value < 0 ? "-Infinity" : "NaN";
    return Number.isInteger(value) ? String(value) : String(value);
  }
  if (Array.isArray(value)) return `[${value.map(pythonCanonicalJson).join(",")}]`;
  if (isObject(value)) {
    // Python sorts str keys by code point; JS sort on UTF-16 units agrees outside astral keys.
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${pythonString(key)}:${pythonCanonicalJson(value[key])}`).join(",")}}`;
  }
  return "null";
}

/** HS-39: arguments re-serialized canonically; text that is not JSON is kept as written. */
function canonicalArguments(args: unknown): unknown {
  if (typeof args !== "string") return args;
  try {
    return pythonCanonicalJson(parseNestedJson(args));
  } catch {
    return args;
  }
}

function rowOf(raw: Record<string, unknown>): HermesRowInfo | null {
  return isObject(raw._row) ? (raw._row as unknown as HermesRowInfo) : null;
}

/** One stored message as hermes puts it in `api_messages` (before markers and normalisation). */
function apiMessage(raw: Record<string, unknown>, strict: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key.startsWith("_") || key === "reasoning" || key === "finish_reason") continue;
    out[key] = value;
  }
  if (raw.role === "assistant" && typeof raw.reasoning === "string" && raw.reasoning !== "") out.reasoning_content = raw.reasoning;
  const apiContent = rowOf(raw)?.apiContent ?? null;
  if (raw.role === "user" && apiContent !== null) out.content = apiContent;
  if (strict && Array.isArray(out.tool_calls)) {
    out.tool_calls = out.tool_calls.map((call) => {
      if (!isObject(call)) return call;
      const { call_id: _callId, response_item_id: _itemId, ...rest } = call;
      return rest;
    });
  }
  return out;
}

/** HS-42 `_apply_cache_marker` (K): tool and empty messages carry it on the message, strings become a text part. */
function withMarker(message: Record<string, unknown>): Record<string, unknown> {
  const content = message.content;
  if (message.role === "tool" || content === null || content === undefined || content === "") return { ...message, cache_control: { ...CACHE_MARKER } };
  if (typeof content === "string") return { ...message, content: [{ type: "text", text: content, cache_control: { ...CACHE_MARKER } }] };
  if (Array.isArray(content) && content.length > 0 && isObject(content[content.length - 1])) {
    const parts = content.slice();
    parts[parts.length - 1] = { ...(parts[parts.length - 1] as Record<string, unknown>), cache_control: { ...CACHE_MARKER } };
    return { ...message, content: parts };
  }
  return message;
}

/** HS-42 `system_and_3`: the system message and the last three other messages. */
function applySystemAndThree(messages: Record<string, unknown>[]): Record<string, unknown>[] {
  const out = messages.slice();
  let remaining = 4;
  if (out[0]?.role === "system") {
    out[0] = withMarker(out[0]);
    remaining--;
  }
  const others = out.map((m, i) => (m.role === "system" ? -1 : i)).filter((i) => i >= 0);
  for (const i of others.slice(-remaining)) out[i] = withMarker(out[i]!);
  return out;
}

/** HS-39: string contents stripped, tool-call arguments canonical. */
function normalize(message: Record<string, unknown>): Record<string, unknown> {
  const out = { ...message };
  if (typeof out.content === "string") out.content = out.content.trim();
  if (Array.isArray(out.tool_calls)) {
    out.tool_calls = out.tool_calls.map((call) => {
      if (!isObject(call) || !isObject(call.function)) return call;
      return { ...call, function: { ...call.function, arguments: canonicalArguments(call.function.arguments) } };
    });
  }
  return out;
}

export interface HermesRequestParts {
  /** `messages` as sent; index 0 is the system message when a prompt is stored. */
  messages: Record<string, unknown>[];
  cached: boolean;
}

/** The `messages` list of one API call from the stored messages in its context. */
export function hermesApiMessages(target: HermesRequestTarget, context: readonly Record<string, unknown>[]): HermesRequestParts {
  const strict = isStrictProvider(target.baseUrl);
  let messages = context.map((raw) => apiMessage(raw, strict));
  if (target.systemPrompt !== null && target.systemPrompt !== "") messages.unshift({ role: "system", content: target.systemPrompt });
  const cached = usesPromptCaching(target);
  if (cached) messages = applySystemAndThree(messages);
  return { messages: messages.map(normalize), cached };
}
