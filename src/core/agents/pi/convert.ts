// pi's convertToLlm (spec §3.1–3.2, PI-C1…PI-C7): projected AgentMessages → LLM messages with
// provenance. user/assistant/toolResult pass through as the same object (PI-C1); bash
// executions, custom messages and summaries become user messages with the exact wrapper strings.
// Results are cached per message object, so a message shared by many turns is converted once
// (design rule "never quadratic"). senpi with reply-language notes: a compaction summary that the
// projection gave a carrier (`userLanguage`) carries its note after `</summary>` (RL-23).
import type { PiProfileId } from "./profile";
import type {
  AgentMessage,
  BashExecutionMessage,
  ContextMessage,
  DroppedMessage,
  LlmMessage,
  Provenance,
  TextBlock,
  UserMessage,
} from "../../model";
import { applyCompactionCarrier } from "../../notes";
import { carrierSources } from "./notesSetup";
import type { ProjectedMessage } from "./projection";
import { isText, textString, textUnits } from "../../text/text";
import { estimateMessageTokens } from "./estimate";

// §3.1 — byte-exact, identical in pi and senpi. The branch suffix has no leading newline.
export const COMPACTION_SUMMARY_PREFIX =
  "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
export const COMPACTION_SUMMARY_SUFFIX = "\n</summary>";
export const BRANCH_SUMMARY_PREFIX =
  "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
export const BRANCH_SUMMARY_SUFFIX = "</summary>";

/** Custom type of senpi's environment message (SP-C6). */
export const ENVIRONMENT_CUSTOM_TYPE = "environment-context";

export interface ConvertedMessage {
  /** The LLM message sent, or null when the rule drops the message. */
  context: ContextMessage | null;
  /** Set when the message is dropped and can be shown (e.g. a `!!` command, PI-C2). */
  dropped: DroppedMessage | null;
  /** Set for an unknown role (PI-C6). */
  warning: string | null;
}

/**
 * PI-C2: the text pi sends for a command the user ran. The output is wrapped into one new text,
 * so a stored output is decoded here (once: conversions are cached per message).
 */
export function renderBashExecution(message: BashExecutionMessage): string {
  let text = "Ran `" + message.command + "`\n";
  text += textUnits(message.output) > 0 ? "```\n" + textString(message.output) + "\n```" : "(no output)";
  if (message.cancelled) text += "\n\n(command cancelled)";
  else if (typeof message.exitCode === "number" && message.exitCode !== 0) {
    text += `\n\nCommand exited with code ${message.exitCode}`;
  }
  if (message.truncated && message.fullOutputPath) {
    text += `\n\n[Output truncated. Full output: ${message.fullOutputPath}]`;
  }
  return text;
}

function userText(text: string, timestamp: number | undefined): UserMessage {
  const block: TextBlock = { type: "text", text };
  return { role: "user", content: [block], timestamp };
}

function convertUncached(projected: ProjectedMessage, profile: PiProfileId): ConvertedMessage {
  const message: AgentMessage = projected.message;
  const entryId = projected.entryId;
  const edited = projected.editedBy ? `edited by context_edit ${projected.editedBy}` : undefined;
  const kept = (llm: LlmMessage, rule: string, ruleId?: string, extra?: { customType?: string }): ConvertedMessage => {
    // Fields set one by one, in this order, rather than spread from small objects: this runs
    // once per message of the session.
    const provenance: Provenance = { rule, entryId };
    if (ruleId) provenance.ruleId = ruleId;
    if (extra?.customType !== undefined) provenance.customType = extra.customType;
    if (edited) {
      provenance.explanation = edited;
      provenance.editedBy = projected.editedBy as string;
    }
    return { context: { message: llm, provenance }, dropped: null, warning: null };
  };
  switch (message.role) {
    case "user":
    case "assistant":
    case "toolResult":
      return kept(message, "entry", "PI-C1"); // PI-C1: same object
    case "bashExecution": {
      const rendered = userText(renderBashExecution(message), message.timestamp);
      if (message.excludeFromContext) {
        return {
          context: null,
          dropped: { message: rendered, entryId, reason: "excluded-from-context", ruleId: "PI-C2" },
          warning: null,
        };
      }
      return kept(rendered, "render:bash", "PI-C2");
    }
    case "custom": {
      const content = isText(message.content) ? [{ type: "text" as const, text: message.content }] : message.content;
      return kept({ role: "user", content, timestamp: message.timestamp }, "render:custom", "PI-C3", {
        customType: message.customType,
      });
    }
    case "branchSummary":
      return kept(
        // The wrapped summary is one new text: a stored summary is decoded (once per message).
        userText(BRANCH_SUMMARY_PREFIX + textString(message.summary) + BRANCH_SUMMARY_SUFFIX, message.timestamp),
        "wrap:branch-summary",
        "PI-C4",
      );
    case "compactionSummary": {
      const converted = kept(
        userText(COMPACTION_SUMMARY_PREFIX + textString(message.summary) + COMPACTION_SUMMARY_SUFFIX, message.timestamp),
        "wrap:compaction-summary",
        "PI-C5",
      );
      // RL-23 / RL-24: only a summary the projection gave a carrier (senpi, notes on) changes.
      if (profile !== "senpi" || message.userLanguage === undefined || !converted.context) return converted;
      const source = carrierSources.get(message);
      const carrier = {
        userLanguage: message.userLanguage,
        userLanguageRequested: message.userLanguageRequested ?? false,
        fromEntryId: source?.fromEntryId ?? null,
      };
      return { ...converted, context: applyCompactionCarrier(converted.context, carrier, source?.options) };
    }
    default: {
      const role = (message as { role?: unknown }).role;
      if (profile === "senpi" && (role === "system" || role === "configurationUpdate")) {
        // SP-C1: senpi passes these roles through unchanged.
        return kept(message as unknown as LlmMessage, "entry", "SP-C1");
      }
      return { context: null, dropped: null, warning: `message with unknown role ${JSON.stringify(role)} dropped (PI-C6)` };
    }
  }
}

/**
 * A message's conversion, and the sizes the analysis adds up for it (filled when first asked):
 * one record per message and profile, so a walk looks each message up once.
 */
interface CachedConversion {
  converted: ConvertedMessage;
  /** pi's estimate of the projected message (estimate.ts), or -1 until asked. */
  tokens: number;
  /** llmMessageChars of the converted message, or -1 until asked. */
  chars: number;
}

const caches: Record<PiProfileId, WeakMap<object, CachedConversion>> = {
  pi: new WeakMap(),
  senpi: new WeakMap(),
};

function cachedConversion(projected: ProjectedMessage, profile: PiProfileId): CachedConversion {
  const cache = caches[profile];
  let cached = cache.get(projected.message);
  if (!cached) {
    cached = { converted: convertUncached(projected, profile), tokens: -1, chars: -1 };
    cache.set(projected.message, cached);
  }
  return cached;
}

/**
 * Converts one projected message. Cached per message object and profile: the projection reuses
 * one object per entry (and per context_edit), so every turn gets the same ContextMessage.
 */
export function convertProjected(projected: ProjectedMessage, profile: PiProfileId): ConvertedMessage {
  if (projected.hidden) {
    // SP-P2: a context_edit with `replacement: null` hides the message; show it as dropped.
    const converted = convertProjected({ ...projected, hidden: false, editedBy: null }, profile);
    const shown = converted.context?.message ?? converted.dropped?.message;
    return {
      context: null,
      dropped: shown ? { message: shown, entryId: projected.entryId, reason: "context-edit", ruleId: "SP-P2" } : null,
      warning: null,
    };
  }
  return cachedConversion(projected, profile).converted;
}

/** A projected message's conversion with its sizes, as the analysis adds them up. */
export interface SizedConversion {
  converted: ConvertedMessage;
  /** pi's estimate of the message (estimateMessageTokens); read only when `converted.context` is set. */
  tokens: number;
  /** llmMessageChars of the converted message; read only when `converted.context` is set. */
  chars: number;
}

const NO_SIZES_HIDDEN = { tokens: 0, chars: 0 };

/**
 * `convertProjected` with the message's estimate and characters, computed once per message and
 * profile and kept with its conversion (the same record). The record is the cache's: read it.
 */
export function convertProjectedSized(projected: ProjectedMessage, profile: PiProfileId): SizedConversion {
  if (projected.hidden) return { converted: convertProjected(projected, profile), ...NO_SIZES_HIDDEN };
  const cached = cachedConversion(projected, profile);
  const context = cached.converted.context;
  if (context && cached.tokens < 0) {
    cached.tokens = estimateMessageTokens(projected.message, { profile });
    cached.chars = countLlmMessageChars(context.message);
  }
  return cached;
}

export interface ConvertResult {
  messages: ContextMessage[];
  dropped: DroppedMessage[];
  /** Warnings with the source entry's line. */
  warnings: { line: number; reason: string }[];
}

/** convertToLlm over a projected context. */
export function convertToLlm(projected: readonly ProjectedMessage[], profile: PiProfileId): ConvertResult {
  const messages: ContextMessage[] = [];
  const dropped: DroppedMessage[] = [];
  const warnings: { line: number; reason: string }[] = [];
  for (const item of projected) {
    const converted = convertProjected(item, profile);
    if (converted.context) messages.push(converted.context);
    if (converted.dropped) dropped.push(converted.dropped);
    if (converted.warning) warnings.push({ line: item.line, reason: converted.warning });
  }
  return { messages, dropped, warnings };
}

/** Characters of the text a converted message carries (text, thinking, tool name + arguments). */
const charCache = new WeakMap<object, number>();
export function llmMessageChars(message: LlmMessage): number {
  const cached = charCache.get(message);
  if (cached !== undefined) return cached;
  const chars = countLlmMessageChars(message);
  charCache.set(message, chars);
  return chars;
}

function countLlmMessageChars(message: LlmMessage): number {
  let chars = 0;
  const content = message.content as unknown;
  if (isText(content)) chars = textUnits(content);
  else if (Array.isArray(content)) {
    for (const block of content as Record<string, unknown>[]) {
      if (block.type === "text" && isText(block.text)) chars += textUnits(block.text);
      else if (block.type === "thinking" && isText(block.thinking)) chars += textUnits(block.thinking);
      else if (block.type === "toolCall") {
        chars += String(block.name ?? "").length + JSON.stringify(block.arguments ?? {}).length;
      }
    }
  }
  return chars;
}
