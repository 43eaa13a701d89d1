// Finding "tool calls without their results on either side of the cut" (CP-DH-5,
// CP-HA-10): an assistant tool call whose result falls on the other side of the compaction
// boundary (or has no result at all in the context), so one side sends a call without its result
// or a result without its call.
import type { ContextMessage } from "../../model";
import type { Finding } from "../types";

export type Side = "summarised" | "kept" | "other";

/**
 * `sideOf(i)` tells on which side of the cut context message i lies. Only pairs with at least one
 * member summarised or kept are checked.
 */
export function checkToolPairsAcrossCut(messages: readonly ContextMessage[], sideOf: (index: number) => Side): Finding[] {
  const calls = new Map<string, { index: number; side: Side; name: string }>();
  const results = new Map<string, { index: number; side: Side }>();
  messages.forEach((item, index) => {
    const message = item.message;
    if (message.role === "assistant") {
      for (const block of message.content) if (block.type === "toolCall") calls.set(block.id, { index, side: sideOf(index), name: block.name });
    } else if (message.role === "toolResult") {
      results.set(message.toolCallId, { index, side: sideOf(index) });
    }
  });
  const findings: Finding[] = [];
  for (const [id, call] of calls) {
    const result = results.get(id);
    if (call.side === "other" && (!result || result.side === "other")) continue;
    if (result && result.side === call.side) continue;
    const message = result
      ? `tool call ${call.name} (${id}) is ${call.side} but its result is ${result.side}: the cut separates them`
      : `tool call ${call.name} (${id}) is ${call.side} and has no result in the context`;
    findings.push({
      id: "tool-call-split-by-cut",
      severity: "warning",
      message,
      location: { messageIndex: call.index, entryId: messages[call.index]!.provenance.entryId ?? undefined },
      ruleId: "CP-DH-5",
    });
  }
  for (const [id, result] of results) {
    if (calls.has(id) || result.side === "other") continue;
    findings.push({
      id: "tool-call-split-by-cut",
      severity: "warning",
      message: `tool result ${id} is ${result.side} without its call`,
      location: { messageIndex: result.index },
      ruleId: "CP-DH-5",
    });
  }
  return findings;
}
