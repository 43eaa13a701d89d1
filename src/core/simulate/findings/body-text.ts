// Reads the texts of a provider request body of any of the four shapes, by message and by JSON
// path, for the finding checks: which role a message has, which strings it holds, which strings
// sit in the system slot (Anthropic `system`, Chat `system`/`developer` messages, Responses
// `instructions` and system/developer items, Google `systemInstruction`). A stored text (kept as
// bytes) is read as its characters: these checks look into the texts.
import { decodeStoredText, isStoredText } from "../../text/storedText";

export interface BodyMessageText {
  /** Index in the body's message list (`messages`, `input` or `contents`). */
  index: number;
  role: string;
  /** JSON path of the message, e.g. `messages[3]`. */
  path: string;
  /** All string leaves of the message's content, joined with "\n". */
  text: string;
}

export interface StringLeaf {
  path: string;
  value: string;
}

/** Every string value inside `value`, with its JSON path (keys included only as path parts). */
export function stringLeaves(value: unknown, path = "", out: StringLeaf[] = []): StringLeaf[] {
  if (typeof value === "string") out.push({ path, value });
  else if (isStoredText(value)) out.push({ path, value: decodeStoredText(value) });
  else if (Array.isArray(value)) value.forEach((item, i) => stringLeaves(item, `${path}[${i}]`, out));
  else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) stringLeaves(item, path ? `${path}.${key}` : key, out);
  }
  return out;
}

function messageListKey(body: Record<string, unknown>): string | null {
  for (const key of ["messages", "input", "contents"]) if (Array.isArray(body[key])) return key;
  return null;
}

const SYSTEM_ROLES = new Set(["system", "developer"]);

/** Content strings of a message (role and ids excluded). */
function contentText(message: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of ["content", "parts", "tool_calls", "output", "arguments", "text"]) {
    if (key in message) for (const leaf of stringLeaves(message[key])) parts.push(leaf.value);
  }
  return parts.join("\n");
}

export function bodyMessages(body: Record<string, unknown>): BodyMessageText[] {
  const key = messageListKey(body);
  if (!key) return [];
  const list = body[key] as unknown[];
  return list.map((item, index) => {
    const message = (typeof item === "object" && item !== null ? item : {}) as Record<string, unknown>;
    const role = typeof message.role === "string" ? message.role : typeof message.type === "string" ? message.type : "";
    return { index, role, path: `${key}[${index}]`, text: contentText(message) };
  });
}

/** Texts in the system slot of a body, each with its path. */
export function systemSlotTexts(body: Record<string, unknown>): StringLeaf[] {
  const out: StringLeaf[] = [];
  for (const key of ["system", "instructions", "systemInstruction"]) {
    if (key in body) out.push(...stringLeaves(body[key], key).filter((leaf) => !leaf.path.endsWith(".type")));
  }
  for (const message of bodyMessages(body)) {
    if (SYSTEM_ROLES.has(message.role)) out.push({ path: message.path, value: message.text });
  }
  return out;
}
