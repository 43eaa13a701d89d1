// The fixed instruction texts of pi's summariser (system prompt, initial / update / turn-prefix
// prompts) are another agent's prose: they are not part of this code base. They are slots filled
// from a captured summariser request the user attaches; an empty slot becomes a "not recorded"
// marker in the rebuilt request (PI-K20 … PI-K22, PI-K27).
import type { ApiId } from "../../../model";
import { asObject } from "../../../util/is-object";
import { isText, textString } from "../../../text/text";

export interface CompactionInstructions {
  /** System prompt of every summariser request (PI-K20). */
  summarizationSystemPrompt?: string;
  /** Instruction after `</conversation>` when there is no previous summary (PI-K22). */
  initialPrompt?: string;
  /** Instruction after `</previous-summary>` (PI-K22). */
  updatePrompt?: string;
  /** Instruction of the turn-prefix request (PI-K27). */
  turnPrefixPrompt?: string;
  /** Where the texts came from (file names), for the UI. */
  sources?: string[];
}

export type InstructionSlot = "initialPrompt" | "updatePrompt" | "turnPrefixPrompt";

export const INSTRUCTION_SLOT_LABELS: Record<InstructionSlot | "summarizationSystemPrompt", string> = {
  summarizationSystemPrompt: "pi summarization system prompt",
  initialPrompt: "pi initial summarization prompt",
  updatePrompt: "pi update summarization prompt",
  turnPrefixPrompt: "pi turn-prefix summarization prompt",
};

/** What one captured summariser request tells us. */
export interface CapturedCompactionRequest {
  api: ApiId;
  /** Which prompt the capture carries. */
  slot: InstructionSlot;
  instructions: CompactionInstructions;
  /** Text after `\n\nAdditional focus: ` when the capture had custom instructions (PI-K21). */
  customInstructions: string | null;
  /** The capture's output cap (max_tokens / max_completion_tokens), when present. */
  maxTokens: number | null;
}

const CONVERSATION_OPEN = "<conversation>\n";
const CONVERSATION_CLOSE = "\n</conversation>\n\n";
const PREVIOUS_SUMMARY_OPEN = "<previous-summary>\n";
const PREVIOUS_SUMMARY_CLOSE = "\n</previous-summary>\n\n";
const ADDITIONAL_FOCUS = "\n\nAdditional focus: ";
/**
 * The turn-prefix prompt is recognised by the section it asks for (PI-K27 names it); the other
 * two are told apart by the presence of a previous-summary block.
 */
const TURN_PREFIX_SECTION = "## Original Request";

/** Text of a content value: a string, or the text parts of a block array joined. */
function contentText(content: unknown): string | null {
  if (isText(content)) return textString(content);
  if (!Array.isArray(content)) return null;
  const texts: string[] = [];
  for (const part of content) {
    const block = asObject(part);
    // "input_text": the OpenAI Responses form of a text part.
    if (block && (block.type === "text" || block.type === "input_text") && isText(block.text)) texts.push(textString(block.text));
  }
  return texts.length > 0 ? texts.join("") : null;
}

interface SummariserShape {
  api: ApiId;
  system: string;
  user: string;
  maxTokens: number | null;
}

/** OpenAI Responses: a system (or developer) input item, then one user item (pi-ai's Responses form). */
function readResponsesShape(body: Record<string, unknown>): SummariserShape | null {
  const input = body.input;
  if (!Array.isArray(input) || input.length !== 2) return null;
  const first = asObject(input[0]);
  const second = asObject(input[1]);
  if (!first || !second || (first.role !== "system" && first.role !== "developer") || second.role !== "user") return null;
  const system = contentText(first.content);
  const user = contentText(second.content);
  if (system === null || user === null) return null;
  return { api: "openai-responses", system, user, maxTokens: typeof body.max_output_tokens === "number" ? body.max_output_tokens : null };
}

/** Recognises the recorded wire shapes of a summariser request: system + one user text. */
function readSummariserShape(body: Record<string, unknown>): SummariserShape | null {
  if (Array.isArray(body.input)) return readResponsesShape(body);
  const messages = body.messages;
  if (!Array.isArray(messages)) return null;
  if (Array.isArray(body.system)) {
    // Anthropic Messages: system blocks, one user message.
    const system = contentText(body.system);
    const only = messages.length === 1 ? asObject(messages[0]) : null;
    const user = only && only.role === "user" ? contentText(only.content) : null;
    if (system === null || user === null) return null;
    return { api: "anthropic-messages", system, user, maxTokens: typeof body.max_tokens === "number" ? body.max_tokens : null };
  }
  if (messages.length === 2) {
    // Chat Completions: system (or developer) message, then one user message.
    const first = asObject(messages[0]);
    const second = asObject(messages[1]);
    if (!first || !second || (first.role !== "system" && first.role !== "developer") || second.role !== "user") return null;
    const system = contentText(first.content);
    const user = contentText(second.content);
    if (system === null || user === null) return null;
    const cap = body.max_completion_tokens ?? body.max_tokens;
    return { api: "openai-completions", system, user, maxTokens: typeof cap === "number" ? cap : null };
  }
  return null;
}

/**
 * Reads a captured pi summariser request (Chat Completions, Anthropic or Responses shape) and returns the
 * system prompt and the instruction it carries. Null when the body is not a summariser request.
 */
export function extractCompactionInstructions(capturedBody: unknown, source = "captured request"): CapturedCompactionRequest | null {
  const body = asObject(capturedBody);
  if (!body) return null;
  const shape = readSummariserShape(body);
  if (!shape || !shape.user.startsWith(CONVERSATION_OPEN)) return null;

  // The instruction is everything after the last closing tag: `</previous-summary>` for an
  // update request, `</conversation>` otherwise (PI-K21).
  const text = shape.user;
  const summaryClose = text.lastIndexOf(PREVIOUS_SUMMARY_CLOSE);
  const conversationClose = text.lastIndexOf(CONVERSATION_CLOSE);
  if (conversationClose < 0) return null;
  const hasPreviousSummary =
    summaryClose > conversationClose && text.includes(CONVERSATION_CLOSE + PREVIOUS_SUMMARY_OPEN);
  const tailStart = hasPreviousSummary
    ? summaryClose + PREVIOUS_SUMMARY_CLOSE.length
    : conversationClose + CONVERSATION_CLOSE.length;
  let instruction = text.slice(tailStart);

  let customInstructions: string | null = null;
  const focusAt = instruction.lastIndexOf(ADDITIONAL_FOCUS);
  if (focusAt >= 0) {
    customInstructions = instruction.slice(focusAt + ADDITIONAL_FOCUS.length);
    instruction = instruction.slice(0, focusAt);
  }

  const slot: InstructionSlot = hasPreviousSummary
    ? "updatePrompt"
    : instruction.includes(TURN_PREFIX_SECTION)
      ? "turnPrefixPrompt"
      : "initialPrompt";
  return {
    api: shape.api,
    slot,
    instructions: { summarizationSystemPrompt: shape.system, [slot]: instruction, sources: [source] },
    customInstructions,
    maxTokens: shape.maxTokens,
  };
}

/** Later captures fill the slots earlier ones left empty; the first value of a slot wins. */
export function mergeCompactionInstructions(...all: (CompactionInstructions | null | undefined)[]): CompactionInstructions {
  const merged: CompactionInstructions = {};
  const sources: string[] = [];
  for (const item of all) {
    if (!item) continue;
    merged.summarizationSystemPrompt ??= item.summarizationSystemPrompt;
    merged.initialPrompt ??= item.initialPrompt;
    merged.updatePrompt ??= item.updatePrompt;
    merged.turnPrefixPrompt ??= item.turnPrefixPrompt;
    for (const s of item.sources ?? []) if (!sources.includes(s)) sources.push(s);
  }
  if (sources.length > 0) merged.sources = sources;
  // Drop keys left undefined so the result stays tidy plain data.
  for (const key of Object.keys(merged) as (keyof CompactionInstructions)[]) if (merged[key] === undefined) delete merged[key];
  return merged;
}
