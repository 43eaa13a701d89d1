// The messages a surface node derives to (the harness's deriveEventMessage), in the shapes the rest
// of Contextscope reads (pi-ai's user, assistant and tool-result messages) with their provenance.
// A user message holding tool results becomes its text part (when it has text, or no tool
// results) followed by one tool result per block, which is how the DeepSeek adapter sends it. A
// tool call's arguments are the raw JSON string the model streamed; the harness sends that
// string back untouched, so it is kept beside the parsed view (`rawToolArguments`).
import type { ContextMessage, LlmMessage, SessionEntry, TextBlock, ThinkingBlock, ToolCallBlock, ToolResultMessage, UserMessage } from "../../model";
import { isObject } from "../../util/is-object";
import { isText, textUnits } from "../../text/text";
import { contentOf, messageOf, sourceOf, str } from "./events";

/** Provenance rule of the compaction checkpoint (the summary message that replaced a range). */
const CHECKPOINT_RULE = "summary:compaction";

const rawArguments = new WeakMap<ToolCallBlock, string>();

/** The raw argument string of a tool call as the model streamed it, when it came from a session. */
export function rawToolArguments(block: ToolCallBlock): string | null {
  return rawArguments.get(block) ?? null;
}

function parsedArguments(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : { input: parsed };
  } catch {
    return { input: text };
  }
}

/** A content block the wire does not carry as text, named in the view. */
function placeholder(block: Record<string, unknown>): string {
  if (block.type === "image") {
    const attachment = isObject(block.attachment) ? str(block.attachment.attachmentId) : null;
    return `[image ${attachment ?? "(no attachment id)"}: the bytes are in the harness's attachment store, not in the session log]`;
  }
  return `[${str(block.type) ?? "unknown"} block]`;
}

/** The text blocks of a list of blocks (objects only; others are skipped), an image as its placeholder. */
function userTextBlocks(blocks: readonly unknown[]): TextBlock[] {
  const out: TextBlock[] = [];
  for (const block of blocks) {
    if (!isObject(block)) continue;
    if (block.type === "text" && isText(block.text)) out.push({ type: "text", text: block.text });
    else if (block.type === "image") out.push({ type: "text", text: placeholder(block) });
  }
  return out;
}

function toolResultOf(block: Record<string, unknown>, toolNames: ReadonlyMap<string, string>): ToolResultMessage {
  const toolCallId = str(block.toolCallId) ?? "";
  const content = Array.isArray(block.content) ? userTextBlocks(block.content) : [];
  return { role: "toolResult", toolCallId, toolName: toolNames.get(toolCallId) ?? "", content, isError: block.isError === true };
}

function assistantOf(message: Record<string, unknown>): LlmMessage {
  const content: (TextBlock | ThinkingBlock | ToolCallBlock)[] = [];
  for (const block of contentOf(message)) {
    if (block.type === "text" && isText(block.text)) content.push({ type: "text", text: block.text });
    else if (block.type === "reasoning" && isText(block.text)) content.push({ type: "thinking", thinking: block.text });
    else if (block.type === "tool-call") {
      const args = typeof block.arguments === "string" ? block.arguments : JSON.stringify(block.arguments ?? {});
      const call: ToolCallBlock = { type: "toolCall", id: str(block.id) ?? "", name: str(block.name) ?? "", arguments: parsedArguments(args) };
      rawArguments.set(call, args);
      content.push(call);
    }
  }
  const source = sourceOf(message);
  return {
    role: "assistant",
    content,
    api: "openai-completions",
    ...(str(source.provider) ? { provider: str(source.provider)! } : {}),
    ...(str(source.model) ? { model: str(source.model)! } : {}),
  };
}

/** Why a user-role message is on the surface: a prompt, a plugin's injected context, a checkpoint. */
function userProvenance(entry: SessionEntry, source: Record<string, unknown>): ContextMessage["provenance"] {
  const plugin = str(source.plugin);
  if (source.kind === "plugin" && plugin === "compact") {
    return {
      rule: CHECKPOINT_RULE,
      entryId: entry.id,
      explanation: "The compaction checkpoint: the harness's preamble and the summary inside <compacted-summary>, replacing the range it condensed. Stored in the log as it was sent.",
    };
  }
  if (source.kind === "plugin") {
    const form = str(source.form) ?? (isObject(source.form) ? str(source.form.kind) : null);
    return {
      rule: "entry",
      entryId: entry.id,
      explanation: `Context injected by the harness plugin ${plugin ?? "(unnamed)"}${form ? ` (${form})` : ""}; stored in the log with its framing, sent as a user message.`,
    };
  }
  return { rule: "entry", entryId: entry.id };
}

/**
 * The context messages a surface event derives to, in wire order; none for an assistant message
 * with empty content (it only hosts a max-tokens step's usage). New objects each call: the callers
 * that need the same objects again keep them while the event is on their surface
 * (surfaceCarry.ts), so the messages of events a compaction replaced are not held to the end.
 */
export function deriveContextMessages(entry: SessionEntry, toolNames: ReadonlyMap<string, string>): ContextMessage[] {
  const message = messageOf(entry);
  let out: ContextMessage[] = [];
  if (message) {
    const blocks = contentOf(message);
    if (entry.type === "assistant/message") {
      if (blocks.length > 0) out = [{ message: assistantOf(message), provenance: { rule: "entry", entryId: entry.id } }];
    } else {
      const source = sourceOf(message);
      const text = userTextBlocks(blocks);
      let joined = 0;
      for (const block of text) joined += textUnits(block.text);
      let results = 0;
      for (const block of blocks) if (block.type === "tool-result") results++;
      if (joined > 0 || results === 0) {
        const user: UserMessage = { role: "user", content: text };
        out.push({ message: user, provenance: userProvenance(entry, source) });
      }
      for (const block of blocks) if (block.type === "tool-result") out.push({ message: toolResultOf(block, toolNames), provenance: { rule: "entry", entryId: entry.id } });
    }
  }
  return out;
}
