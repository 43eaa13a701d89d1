// pi's summariser requests (PI-K20 … PI-K25, PI-K27): the user text around the serialized
// conversation, and the provider body built with the same serializer as main requests, with the
// summarization system prompt as the header's system prompt, the cap as its output limit and no
// tools. Missing instruction texts become "not recorded" markers in place.
import type { PiProfileId } from "../profile";
import { notRecorded } from "../../../model";
import type { ApiId, LlmMessage, ModelInfo, TextBlock, UserMessage } from "../../../model";
import type { SerializeOptions, ProviderSerializer } from "../../../providers/registry";
import { INSTRUCTION_SLOT_LABELS, type CompactionInstructions, type InstructionSlot } from "./instructions";

export type SummariserRole = "history" | "turn-prefix";

/**
 * PI-K27: "serialized" (pi 0.73.1: the prefix as a `<conversation>` transcript with the system
 * prompt) or "replay" (an older pi-mono revision: the prefix messages themselves, then the prompt
 * as a user message, no system prompt).
 */
export type TurnPrefixForm = "serialized" | "replay";

export interface SummariserRequest {
  role: SummariserRole;
  api: ApiId;
  body: Record<string, unknown>;
  /** The user text as a string; a missing instruction shows as `[not recorded: …]`. */
  userText: string;
  maxTokens: number;
  /** Which instruction slot the request uses. */
  instructionSlot: InstructionSlot;
  /** Labels of the parts filled with a not-recorded marker ("system", instruction labels). */
  notRecorded: string[];
}

/** The pieces of a summariser's user text (PI-K21, PI-K27). */
export interface UserTextParts {
  conversation: string;
  previousSummary: string | null;
  /** null when the slot is empty (not recorded). */
  instruction: string | null;
  customInstructions: string | null;
}

/** Everything before the instruction: `<conversation>` block and the previous-summary block. */
function userTextHead(parts: Pick<UserTextParts, "conversation" | "previousSummary">): string {
  let text = `<conversation>\n${parts.conversation}\n</conversation>\n\n`;
  if (parts.previousSummary) text += `<previous-summary>\n${parts.previousSummary}\n</previous-summary>\n\n`;
  return text;
}

/** The instruction with custom instructions appended (PI-K21). */
function instructionWithFocus(instruction: string, customInstructions: string | null): string {
  return customInstructions ? `${instruction}\n\nAdditional focus: ${customInstructions}` : instruction;
}

function notRecordedText(label: string): string {
  return `[not recorded: ${label}]`;
}

/** A string that cannot occur in session text, swapped for the marker object after serializing. */
const MARKER_SENTINEL = "\u0000contextscope-not-recorded-instruction\u0000";

function replaceSentinel(value: unknown, marker: unknown): unknown {
  if (value === MARKER_SENTINEL) return marker;
  if (Array.isArray(value)) return value.map((item) => replaceSentinel(item, marker));
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = replaceSentinel(item, marker);
    return out;
  }
  return value;
}

export interface SummariserBodyInput {
  serializer: ProviderSerializer;
  model: ModelInfo;
  profile: PiProfileId;
  /** Session thinking level, used by senpi for the reasoning effort (PI-K24). */
  thinkingLevel: string;
  instructions: CompactionInstructions;
  maxTokens: number;
  serializeOptions?: SerializeOptions;
}

/** PI-K24: pi asks for reasoning `high` when the model reasons; senpi uses the session level. */
function summariserThinkingLevel(input: SummariserBodyInput): string {
  if (!input.model.reasoning) return "off";
  if (input.profile === "senpi") return input.thinkingLevel !== "off" ? input.thinkingLevel : "off";
  return "high";
}

function serializeSummariser(
  input: SummariserBodyInput,
  messages: LlmMessage[],
  systemPrompt: string | undefined,
  missingInstruction: string | null,
): { body: Record<string, unknown>; notRecorded: string[] } {
  const out = input.serializer.serialize({
    model: { ...input.model, maxTokens: input.maxTokens },
    messages,
    header: {
      api: input.serializer.id,
      systemPrompt,
      maxTokens: input.maxTokens,
      extraSettings: {},
      source: "compaction instructions",
    },
    thinkingLevel: summariserThinkingLevel(input),
    omitTools: true,
    options: input.serializeOptions,
  });
  const labels = [...out.notRecorded];
  let body = out.body;
  if (missingInstruction !== null) {
    body = replaceSentinel(body, notRecorded(missingInstruction)) as Record<string, unknown>;
    labels.push(missingInstruction);
  }
  return { body, notRecorded: labels };
}

/** PI-K20/PI-K21/PI-K27 standalone form: system prompt + one user message with one text block. */
export function buildStandaloneSummariserRequest(
  input: SummariserBodyInput,
  role: SummariserRole,
  slot: InstructionSlot,
  parts: UserTextParts,
  timestamp: number,
): SummariserRequest {
  const head = userTextHead(parts);
  const missing = parts.instruction === null ? INSTRUCTION_SLOT_LABELS[slot] : null;
  const instruction = parts.instruction === null ? null : instructionWithFocus(parts.instruction, parts.customInstructions);
  // A missing instruction is sent as a second text block holding the marker, so the transcript
  // stays readable and the marker sits exactly where the instruction goes.
  const content: TextBlock[] =
    instruction !== null
      ? [{ type: "text", text: head + instruction }]
      : [
          { type: "text", text: head },
          { type: "text", text: MARKER_SENTINEL },
        ];
  const user: UserMessage = { role: "user", content, timestamp };
  const { body, notRecorded: labels } = serializeSummariser(input, [user], input.instructions.summarizationSystemPrompt, missing);
  return {
    role,
    api: input.serializer.id,
    body,
    userText: head + (instruction ?? notRecordedText(missing!)),
    maxTokens: input.maxTokens,
    instructionSlot: slot,
    notRecorded: labels,
  };
}

/** PI-K27 "replay" form: the prefix messages, then the turn-prefix prompt; no system prompt. */
export function buildReplayTurnPrefixRequest(
  input: SummariserBodyInput,
  prefixMessages: LlmMessage[],
  timestamp: number,
): SummariserRequest {
  const prompt = input.instructions.turnPrefixPrompt ?? null;
  const missing = prompt === null ? INSTRUCTION_SLOT_LABELS.turnPrefixPrompt : null;
  const user: UserMessage = { role: "user", content: [{ type: "text", text: prompt ?? MARKER_SENTINEL }], timestamp };
  const { body, notRecorded: labels } = serializeSummariser(input, [...prefixMessages, user], "", missing);
  return {
    role: "turn-prefix",
    api: input.serializer.id,
    body,
    userText: prompt ?? notRecordedText(missing!),
    maxTokens: input.maxTokens,
    instructionSlot: "turnPrefixPrompt",
    notRecorded: labels,
  };
}
