// A recorder's guess of what a captured request is for: the agent's main request, its compaction
// summariser request, its session-title request, or a token count (Anthropic's count_tokens,
// Gemini's countTokens: known by the path alone). Read from the words the agents' own prompts
// use at the start of the system prompt and of the last user message (the summariser and title
// prompts of pi, Claude Code, Codex, opencode, Gemini CLI, Qwen Code, senpi, deepseek-harness in
// ../shared/fixtures, and Kimi Code's handoff instruction in test/fixtures/kimi-code), never from
// the user's conversation further in. A guess only: `verify` matches by content and does not trust it.
import { isObject } from "../util/is-object";

export type CapturedRequestKind = "main" | "summary" | "title" | "count";

/** How far into the system prompt, and into the last user message, the agents' own words are looked for. */
const SYSTEM_HEAD = 300;
const USER_HEAD = 600;

const TITLE = /\b(title generator|concise title|generate (a |the )?(brief |short |session )?title)/i;
// Main system prompts mention summarising in passing, and users ask for summaries: only the
// summariser prompts' own phrases count.
const SYSTEM_SUMMARY = /summari[sz]ation (assistant|agent)|state_snapshot|summari[sz]es? (a |the )?conversation/i;
const USER_SUMMARY =
  /compaction|context checkpoint|state_snapshot|summary instruction|summari[sz]es a conversation|respond with text only\. do not call any tools|^<conversation>|conversation so far|handoff summary/i;

function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(textOf).join("\n");
  if (!isObject(value)) return "";
  if (typeof value.text === "string") return value.text;
  if (value.content !== undefined) return textOf(value.content);
  if (value.parts !== undefined) return textOf(value.parts);
  return "";
}

function conversation(body: Record<string, unknown>): unknown[] {
  for (const key of ["messages", "input", "contents"]) if (Array.isArray(body[key])) return body[key] as unknown[];
  return [];
}

function systemText(body: Record<string, unknown>, items: unknown[]): string {
  const top = body.system ?? body.instructions ?? body.systemInstruction;
  if (top !== undefined) return textOf(top);
  const first = items[0];
  return isObject(first) && (first.role === "system" || first.role === "developer") ? textOf(first) : "";
}

/** Reminders an agent adds to a prompt (Kilo's "The active agent has changed from compaction to code" on a replayed prompt) are not the prompt's words. */
const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

function lastUserText(items: unknown[]): string {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (isObject(item) && item.role === "user") return textOf(item).replace(REMINDER, "");
  }
  return "";
}

/** The guessed kind of a request body (anything not recognised is "main"). */
export function guessRequestKind(body: unknown): CapturedRequestKind {
  if (!isObject(body)) return "main";
  const items = conversation(body);
  const system = systemText(body, items).slice(0, SYSTEM_HEAD);
  const user = lastUserText(items).slice(0, USER_HEAD);
  if (TITLE.test(system) || TITLE.test(user)) return "title";
  if (SYSTEM_SUMMARY.test(system) || USER_SUMMARY.test(user)) return "summary";
  return "main";
}

/** The kind of a request sent to `path` (path and query, as the agent sent it). */
export function guessRequestKindAt(path: string, body: unknown): CapturedRequestKind {
  return /\/count_tokens(\?|$)|:countTokens(\?|$)/.test(path) ? "count" : guessRequestKind(body);
}
