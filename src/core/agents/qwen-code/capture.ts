// What a captured Qwen Code main request teaches that the chat file does not hold
// (docs/formats/qwen-code.md): the system message, the tool schemas, max_tokens, and the
// `<system-reminder>` parts Qwen Code adds on send — the three startup reminders in front of the
// first user message (skills, startup context with date, cwd and folder tree, deferred tools) and
// the date reminder in front of the current prompt. Each is kept verbatim as a session constant.
// A compression request (its last user message is the compression prompt) teaches nothing here.
import type { CaptureFact } from "../../model";
import { fact } from "../../captures/fact";
import { isObject } from "../../util/is-object";

export const QWEN_SYSTEM = "qwen-code.system";
export const QWEN_TOOLS = "qwen-code.tools";
export const QWEN_MAX_TOKENS = "qwen-code.maxTokens";
export const QWEN_STARTUP_REMINDERS = "qwen-code.startupReminders";
export const QWEN_DATE_REMINDER = "qwen-code.dateReminder";

const REMINDER = "<system-reminder>";
const DATE_REMINDER_OPEN = "<system-reminder>\nThe current date is:";

function textParts(message: unknown): string[] {
  if (!isObject(message) || !Array.isArray(message.content)) return [];
  return message.content.map((part) => (isObject(part) && typeof part.text === "string" ? part.text : ""));
}

function isMainRequest(body: Record<string, unknown>): { messages: Record<string, unknown>[] } | null {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isObject) : [];
  if (messages[0]?.role !== "system" || !Array.isArray(body.tools) || body.tools.length === 0) return null;
  const last = messages[messages.length - 1];
  // The compression request ends with the compression prompt and no date reminder.
  if (last?.role === "user" && !textParts(last).some((text) => text.startsWith(DATE_REMINDER_OPEN))) return null;
  return { messages };
}

export function learnQwenCodeCapture(body: Record<string, unknown>, source: string): CaptureFact[] {
  const main = isMainRequest(body);
  if (!main) return [];
  const facts = [
    fact("session", QWEN_SYSTEM, "system message as sent", "$.messages[0]", main.messages[0], source),
    fact("session", QWEN_TOOLS, `tool schemas as sent (${(body.tools as unknown[]).length})`, "$.tools", body.tools, source),
  ];
  if (typeof body.max_tokens === "number") facts.push(fact("session", QWEN_MAX_TOKENS, "max_tokens as sent", "$.max_tokens", body.max_tokens, source));
  const firstUser = main.messages.findIndex((m) => m.role === "user");
  const startup: string[] = [];
  for (const text of textParts(main.messages[firstUser])) {
    if (!text.startsWith(REMINDER) || text.startsWith(DATE_REMINDER_OPEN)) break;
    startup.push(text);
  }
  if (startup.length > 0) facts.push(fact("session", QWEN_STARTUP_REMINDERS, `startup reminders as sent (${startup.length})`, `$.messages[${firstUser}].content`, startup, source));
  const last = main.messages[main.messages.length - 1];
  const date = textParts(last).find((text) => text.startsWith(DATE_REMINDER_OPEN));
  if (date !== undefined) facts.push(fact("session", QWEN_DATE_REMINDER, "date reminder as sent", `$.messages[${main.messages.length - 1}].content`, date, source));
  return facts;
}
