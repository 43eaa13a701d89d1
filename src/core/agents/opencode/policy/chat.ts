// Stored opencode rows → the Chat Completions messages opencode sends (formats.md FM-OC-9), and
// the same rows as pi-shaped context messages with provenance, for the request after a simulated
// compaction. Errored assistant messages are not sent (as the session reader does, OC-INF-ERRORED).
import { parseNestedJson } from "../../../util/json-depth";
import type { ContextMessage, TextBlock, ToolCallBlock } from "../../../model";
import { COMPACTION_PROMPT, compactionPart, isSummaryRow, rowText, type OcMessage } from "./rows";
import { PRUNED_OUTPUT } from "./serialize";

export type ChatMessage = Record<string, unknown>;

function skipped(row: OcMessage): boolean {
  return row.info.role === "assistant" && Boolean(row.info.error);
}

export function rowToChat(row: OcMessage): ChatMessage[] {
  if (skipped(row)) return [];
  if (row.info.role === "user") {
    if (compactionPart(row)) return [{ role: "user", content: COMPACTION_PROMPT }];
    const texts = row.parts.filter((p) => p.type === "text" && typeof p.text === "string" && p.ignored !== true).map((p) => p.text as string);
    return texts.length > 0 ? [{ role: "user", content: texts.join("") }] : [];
  }
  const text = rowText(row);
  const tools = row.parts.filter((p) => p.type === "tool" && typeof p.callID === "string");
  if (tools.length === 0) return text === "" ? [] : [{ role: "assistant", content: text }];
  const out: ChatMessage[] = [
    {
      role: "assistant",
      content: text,
      tool_calls: tools.map((p) => ({ id: p.callID, type: "function", function: { name: p.tool, arguments: JSON.stringify(p.state?.input ?? {}) } })),
    },
  ];
  for (const p of tools) {
    const state = p.state ?? {};
    const content = state.status === "completed" ? (state.time?.compacted !== undefined ? PRUNED_OUTPUT : state.output ?? "") : state.error ?? "";
    out.push({ role: "tool", tool_call_id: p.callID, content });
  }
  return out;
}

function provenanceOf(row: OcMessage) {
  if (compactionPart(row)) return { rule: "synth:compaction-prompt", entryId: row.info.id, ruleId: "FM-OC-13" };
  if (isSummaryRow(row)) return { rule: "summary:compaction", entryId: row.info.id, ruleId: "CP-OC-24" };
  if (row.parts.some((p) => p.synthetic === true && p.metadata?.compaction_continue === true)) {
    return { rule: "synthetic:compaction-continue", entryId: row.info.id, ruleId: "CP-OC-25" };
  }
  return { rule: "entry", entryId: row.info.id };
}

export function rowToContext(row: OcMessage): ContextMessage[] {
  const chat = rowToChat(row);
  const provenance = provenanceOf(row);
  const out: ContextMessage[] = [];
  for (const message of chat) {
    if (message.role === "user") out.push({ message: { role: "user", content: message.content as string }, provenance });
    else if (message.role === "assistant") {
      const blocks: (TextBlock | ToolCallBlock)[] = [];
      if (message.content) blocks.push({ type: "text", text: message.content as string });
      for (const call of (message.tool_calls as { id: string; function: { name: string; arguments: string } }[] | undefined) ?? []) {
        blocks.push({ type: "toolCall", id: call.id, name: call.function.name, arguments: parseNestedJson(call.function.arguments) as Record<string, unknown> });
      }
      out.push({ message: { role: "assistant", content: blocks }, provenance });
    } else {
      out.push({
        message: { role: "toolResult", toolCallId: message.tool_call_id as string, toolName: "", content: [{ type: "text", text: message.content as string }], isError: false },
        provenance,
      });
    }
  }
  return out;
}
