// senpi's replay-form instruction slots (CP-SE-4) and the reading of a captured senpi summariser
// request. The texts are senpi's prose; the descriptions are ours. The recorded senpi 2026.8.22-2
// request (fixture senpi/print-openai-autocompact 009) ends its trailing user message with a
// `<custom-instructions>` block; the text before it is the slot. [INF from the fixture]
import type { InstructionSlotSpec, InstructionSlotValues } from "../../../simulate/types";
import { PI_SLOTS, readCapturedPiRequest } from "./pi-slots";
import { isText, textString, type Text } from "../../../text/text";

export const SENPI_REPLAY_SLOTS: readonly InstructionSlotSpec[] = [
  {
    slot: "historyReplayPrompt",
    label: "senpi history instruction (replay form)",
    ruleId: "CP-SE-4",
    description:
      "(Summarise the conversation above into a structured checkpoint another model continues from — pi's initial layout: ## Goal, ## Constraints & Preferences, ## Progress, ## Key Decisions, ## Next Steps, ## Critical Context.)",
  },
  {
    slot: "historyUpdateReplayPrompt",
    label: "senpi history update instruction (replay form)",
    ruleId: "CP-SE-4",
    description:
      "(The messages above contain an existing structured summary of earlier history followed by NEW messages; merge them under pi's update rules and layout.)",
  },
  {
    slot: "turnPrefixReplayPrompt",
    label: "senpi turn-prefix instruction (replay form)",
    ruleId: "CP-SE-4",
    description:
      "(Internal turn-prefix summary instruction, not conversation history: the final turn above was too large to keep and only its suffix is retained; summarise the active request, goal, verbatim constraints and working context needed for the next turn, inside <summary>…</summary>.)",
  },
  {
    slot: "automaticFocus",
    label: "senpi focus text of automatic compactions",
    ruleId: "CP-SE-4",
    description: "(automatic compaction reason)",
  },
];

export const SENPI_SLOTS: readonly InstructionSlotSpec[] = [...PI_SLOTS, ...SENPI_REPLAY_SLOTS];

const CUSTOM_OPEN = "\n\n<custom-instructions>\n";
const CUSTOM_CLOSE = "\n</custom-instructions>";

/** The instruction with the focus block appended, in the chosen format. */
export function withFocusBlock(instruction: string, focus: string | null, format: string): string {
  if (!focus) return instruction;
  return format === "additional-focus" ? `${instruction}\n\nAdditional focus: ${focus}` : `${instruction}${CUSTOM_OPEN}${focus}${CUSTOM_CLOSE}`;
}

export interface CapturedSenpiRequest {
  values: InstructionSlotValues;
  focus: string | null;
  /** Replay form: the replayed messages (body messages without the trailing instruction). */
  dataPart: unknown;
  form: "replay" | "standalone";
}

function lastUserText(message: unknown): string | null {
  const m = message as { role?: string; content?: unknown };
  if (m?.role !== "user") return null;
  if (isText(m.content)) return textString(m.content);
  if (!Array.isArray(m.content)) return null;
  return m.content.map((b) => ((b as { type?: string }).type === "text" ? textString((b as { text?: Text }).text ?? "") : "")).join("");
}

/** Reads a captured senpi summariser request (replay or standalone form). */
export function readCapturedSenpiRequest(body: unknown, source: string, automatic = true): CapturedSenpiRequest | null {
  const standalone = readCapturedPiRequest(body, source);
  if (standalone) return { values: standalone.values, focus: standalone.focus, dataPart: standalone.dataPart, form: "standalone" };
  const messages = (body as { messages?: unknown[] })?.messages;
  if (!Array.isArray(messages) || messages.length < 2) return null;
  const text = lastUserText(messages[messages.length - 1]);
  if (text === null || !/SUMMARY INSTRUCTION|summar/i.test(text)) return null;
  let instruction = text;
  let focus: string | null = null;
  const at = text.lastIndexOf(CUSTOM_OPEN);
  if (at >= 0 && text.endsWith(CUSTOM_CLOSE)) {
    focus = text.slice(at + CUSTOM_OPEN.length, text.length - CUSTOM_CLOSE.length);
    instruction = text.slice(0, at);
  }
  const slot = /TURN-PREFIX/i.test(instruction) ? "turnPrefixReplayPrompt" : /existing structured summary/i.test(instruction) ? "historyUpdateReplayPrompt" : "historyReplayPrompt";
  const slots: Record<string, string> = { [slot]: instruction };
  const sources: Record<string, string> = { [slot]: source };
  if (focus !== null && automatic) {
    slots.automaticFocus = focus;
    sources.automaticFocus = source;
  }
  const dataPart = messages.slice(0, -1).filter((m) => (m as { role?: string }).role !== "system" && (m as { role?: string }).role !== "developer");
  return { values: { slots, sources }, focus, dataPart, form: "replay" };
}
