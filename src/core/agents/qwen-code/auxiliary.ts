// The compression request of each Qwen Code chat compression, shown as an auxiliary row. Qwen Code
// 0.24.4 (packages/core/src/services/chatCompressionService.ts) sends the main request's system
// message and tools with the history it is about to replace — rebuilt the way the compressing
// process rebuilt it from the file, startup reminders included, without the prompt it was about to
// send — and one user message holding its compression prompt, under its own max_tokens. The prompt
// and that max_tokens are constants of Qwen Code's code, never in the chat file: they are taken
// from a captured compression request when one is attached, else marked not recorded.
import type { AuxiliaryRequestEvent, BuiltRequest, ContextMessage, LearntCapture, PipelineOptions, Session } from "../../model";
import { notRecorded } from "../../model";
import { resolveModel } from "../../models/catalogue";
import { sessionConstant } from "../../captures/fact";
import { isObject } from "../../util/is-object";
import { QWEN_SYSTEM, QWEN_TOOLS } from "./capture";
import { allContents, getQwenIndex, type QwenCompression } from "./history";
import { contextMessages, wireMessages } from "./request";
import { sendReminders, turnModel } from "./turns";

const API = "openai-completions" as const;

export function qwenAuxiliaryEvents(session: Session): AuxiliaryRequestEvent[] {
  const index = getQwenIndex(session);
  return index.compressions.map((compression, position): AuxiliaryRequestEvent => ({
    kind: "auxiliary",
    index: position,
    purpose: "summary",
    entryId: compression.entry.id,
    beforeTurn: compression.turnsBefore < index.turns.length ? compression.turnsBefore + 1 : null,
    timestamp: compression.entry.timestamp,
    rule: "synth:compaction-summary",
    ruleId: "FM-QW-4",
    label: compression.info.triggerReason === "manual" ? "Compression request (/compress)" : "Compression request",
    explanation:
      "Qwen Code's compression request: the main request's system message and tools, the history it replaced (as the compressing process rebuilt it from the file) and Qwen Code's compression prompt, which is a constant of its code and not in the chat file.",
  }));
}

/** The compression prompt and max_tokens of a captured compression request: its last user message, if that holds no date reminder. */
function capturedCompression(body: unknown): { prompt: string; maxTokens: number | null } | null {
  if (!isObject(body) || !Array.isArray(body.messages)) return null;
  const last = body.messages[body.messages.length - 1];
  if (!isObject(last) || last.role !== "user" || !Array.isArray(last.content) || last.content.length !== 1) return null;
  const part = last.content[0];
  if (!isObject(part) || typeof part.text !== "string" || part.text.startsWith("<system-reminder>")) return null;
  return { prompt: part.text, maxTokens: typeof body.max_tokens === "number" ? body.max_tokens : null };
}

function compressionRequest(session: Session, options: PipelineOptions, compression: QwenCompression, learnt: readonly LearntCapture[]): { request: BuiltRequest; taughtBy?: string[] } {
  const index = getQwenIndex(session);
  const taught = learnt.map((capture) => ({ source: capture.source, texts: capturedCompression(capture.body) })).find((item) => item.texts !== null);
  const missing: string[] = [];
  const sourced = wireMessages(allContents(compression.before), { ...sendReminders(options, compression.cwd, compression.writtenBefore, true), withDate: false });
  const system = sessionConstant(options, QWEN_SYSTEM)?.value ?? (missing.push("system prompt"), notRecorded("system prompt"));
  const tools = sessionConstant(options, QWEN_TOOLS)?.value ?? (missing.push("tools"), notRecorded("tool schemas"));
  const prompt = taught?.texts ? { type: "text", text: taught.texts.prompt } : (missing.push("compression prompt"), notRecorded("compression prompt"));
  const maxTokens = taught?.texts?.maxTokens ?? (missing.push("max_tokens"), notRecorded("max_tokens"));
  const turn = index.turns[compression.turnsBefore - 1] ?? index.turns[compression.turnsBefore];
  const modelRef = turn ? turnModel(turn) : null;
  const body: Record<string, unknown> = {
    model: modelRef?.modelId ?? notRecorded("model"),
    messages: [system, ...sourced.map((m) => m.wire), { role: "user", content: [prompt] }],
    max_tokens: maxTokens,
    stream: true,
    stream_options: { include_usage: true },
    tools,
  };
  const instruction: ContextMessage = {
    message: { role: "user", content: [{ type: "text", text: taught?.texts ? taught.texts.prompt : "[compression prompt: not recorded]" }] },
    provenance: {
      rule: "synth:compaction-instruction",
      entryId: null,
      ruleId: "FM-QW-4",
      explanation: taught
        ? "Qwen Code's compression prompt, from a captured compression request (it is a constant of Qwen Code's code, never in the chat file)."
        : "Qwen Code's compression prompt is a constant of its code, not in the chat file: attach a captured compression request to see its text.",
    },
  };
  const request: BuiltRequest = { api: API, body, messages: [...contextMessages(sourced), instruction], dropped: [], model: resolveModel(modelRef, API, options.modelOverrides), notRecorded: missing };
  return taught ? { request, taughtBy: [taught.source] } : { request };
}

/** Auxiliary row `position`: the compression request of the chat's compression of that rank. */
export function buildQwenAuxiliaryRequest(session: Session, options: PipelineOptions, position: number, learnt: readonly LearntCapture[] = []): { request: BuiltRequest; taughtBy?: string[] } {
  const compression = getQwenIndex(session).compressions[position];
  if (!compression) throw new RangeError(`auxiliary request ${position} does not exist`);
  return compressionRequest(session, options, compression, learnt);
}
