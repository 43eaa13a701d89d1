// Small synthetic pi sessions for simulator tests: a list of messages becomes a linear pi session
// (header + one `message` entry per message), read with the real reader.
import { readSessionText } from "../../../src/core/session/index";
import type { Session } from "../../../src/core/model";

export type SyntheticMessage =
  | { role: "user"; text: string }
  | { role: "assistant"; text?: string; calls?: { id: string; name: string; args: Record<string, unknown> }[]; total?: number; stopReason?: string }
  | { role: "toolResult"; id: string; name: string; text: string };

export function syntheticSession(messages: SyntheticMessage[], model = { provider: "openai", id: "gpt-4o" }): Session {
  const lines: string[] = [JSON.stringify({ type: "session", version: 3, id: "synthetic", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/w" })];
  let parent: string | null = null;
  messages.forEach((m, i) => {
    const id = `e${String(i + 1).padStart(3, "0")}`;
    const timestamp = new Date(Date.UTC(2026, 0, 1, 0, 0, i + 1)).toISOString();
    let message: Record<string, unknown>;
    if (m.role === "user") message = { role: "user", content: [{ type: "text", text: m.text }], timestamp: i + 1 };
    else if (m.role === "toolResult") message = { role: "toolResult", toolCallId: m.id, toolName: m.name, content: [{ type: "text", text: m.text }], isError: false, timestamp: i + 1 };
    else {
      const content: unknown[] = [];
      if (m.text) content.push({ type: "text", text: m.text });
      for (const call of m.calls ?? []) content.push({ type: "toolCall", id: call.id, name: call.name, arguments: call.args });
      const total = m.total ?? 100;
      message = {
        role: "assistant",
        content,
        api: "openai-completions",
        provider: model.provider,
        model: model.id,
        usage: { input: total - 10, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: total },
        stopReason: m.stopReason ?? (m.calls ? "toolUse" : "stop"),
        timestamp: i + 1,
      };
    }
    lines.push(JSON.stringify({ type: "message", id, parentId: parent, timestamp, message }));
    parent = id;
  });
  return readSessionText(lines.join("\n") + "\n", "synthetic.jsonl");
}

export const words = (n: number, word = "lorem"): string => Array.from({ length: n }, () => word).join(" ");
