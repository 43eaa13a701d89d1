// The stored rows opencode's compaction works on, in the shape of `opencode export` (`{info,
// parts}`, formats.md FM-OC-4 … FM-OC-6). Only the fields the policy reads are typed. opencode
// sessions already hold their records in this shape (`SessionEntry.raw`); the turn context of any
// other session is adapted here (an assistant message and its tool results become one stored
// assistant message with tool parts, as opencode stores a step).
import type { ContextMessage, Session } from "../../../model";
import { isText, textString } from "../../../text/text";

export interface OcPart {
  id?: string;
  type: string;
  text?: string;
  synthetic?: boolean;
  ignored?: boolean;
  metadata?: Record<string, unknown>;
  tool?: string;
  callID?: string;
  state?: { status?: string; input?: unknown; output?: string; error?: string; time?: { compacted?: number } };
  auto?: boolean;
  overflow?: boolean;
  tail_start_id?: string;
  mime?: string;
  filename?: string;
  url?: string;
}

interface OcInfo {
  id: string;
  role: string;
  parentID?: string;
  summary?: unknown;
  finish?: string;
  error?: unknown;
  model?: { providerID?: string; modelID?: string };
  modelID?: string;
  providerID?: string;
  tokens?: { total?: number; input?: number; output?: number; cache?: { read?: number; write?: number } };
}

export interface OcMessage {
  info: OcInfo;
  parts: OcPart[];
}

export const COMPACTION_PROMPT = "What did we do so far?";
export const CONTINUE_TEXT = "Continue if you have next steps, or stop and ask for clarification if you are unsure how to proceed.";

export function compactionPart(row: OcMessage): OcPart | null {
  if (row.info.role !== "user") return null;
  return row.parts.find((part) => part.type === "compaction") ?? null;
}

export function isSummaryRow(row: OcMessage): boolean {
  return row.info.role === "assistant" && row.info.summary === true;
}

export function rowText(row: OcMessage): string {
  return row.parts
    .filter((part) => part.type === "text" && typeof part.text === "string")
    .map((part) => part.text as string)
    .join("");
}

/** An opencode session's stored rows (its entries hold them as read), or null for other formats. */
export function rowsOfOpencodeSession(session: Session): OcMessage[] | null {
  if (session.formatId !== "opencode") return null;
  return session.entries.map((entry) => entry.raw as unknown as OcMessage);
}

/** Any turn context (plus answer) as opencode rows: ids are the context indices. */
export function rowsFromContext(messages: readonly ContextMessage[]): { rows: OcMessage[]; contextIndexOf: number[] } {
  const rows: OcMessage[] = [];
  const contextIndexOf: number[] = [];
  let lastUserId: string | undefined;
  const pending = new Map<string, OcPart>();
  messages.forEach((item, index) => {
    const message = item.message;
    const id = `ctx-${index}`;
    if (message.role === "user") {
      const text = isText(message.content) ? textString(message.content) : message.content.map((b) => (b.type === "text" ? textString(b.text) : "")).join("");
      rows.push({ info: { id, role: "user" }, parts: [{ type: "text", text }] });
      contextIndexOf.push(index);
      lastUserId = id;
    } else if (message.role === "assistant") {
      const parts: OcPart[] = [];
      for (const block of message.content) {
        if (block.type === "text") parts.push({ type: "text", text: textString(block.text) });
        else if (block.type === "thinking") parts.push({ type: "reasoning", text: textString(block.thinking) });
        else if (block.type === "toolCall") {
          const part: OcPart = { type: "tool", tool: block.name, callID: block.id, state: { status: "pending", input: block.arguments } };
          pending.set(block.id, part);
          parts.push(part);
        }
      }
      const isSummary = /summary/.test(item.provenance.rule) && item.provenance.rule !== "entry";
      const info: OcInfo = { id, role: "assistant", finish: message.stopReason === "toolUse" ? "tool-calls" : message.stopReason ?? "stop" };
      if (lastUserId) info.parentID = lastUserId;
      if (message.errorMessage) info.error = { name: "Error", message: message.errorMessage };
      if (isSummary) info.summary = true;
      rows.push({ info, parts });
      contextIndexOf.push(index);
    } else {
      const part = pending.get(message.toolCallId);
      const output = message.content.map((b) => (b.type === "text" ? textString(b.text) : "")).join("");
      if (part?.state) {
        part.state.status = message.isError ? "error" : "completed";
        if (message.isError) part.state.error = output;
        else part.state.output = output;
      }
    }
  });
  return { rows, contextIndexOf };
}
