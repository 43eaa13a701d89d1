// The summariser request of each Kimi Code compaction, shown as an auxiliary row. Kimi Code
// (fullCompaction/fullCompactionService.ts; docs/formats/kimi-code.md) sends the main request's
// system prompt and tools with the history it is about to replace, projected as for a turn, and
// one user message holding its handoff instruction (compaction-instruction.md), under the
// record's max_tokens (the context is not counted against it: the messages are its own). The file
// records the request (`llm.request` of kind "compaction"), never the instruction's text: it is
// taken from a captured summariser request when one is attached, else marked not recorded.
import type { AuxiliaryRequestEvent, BuiltRequest, ContextMessage, LearntCapture, PipelineOptions, Session } from "../../model";
import { notRecorded } from "../../model";
import { resolveModel } from "../../models/catalogue";
import { isObject } from "../../util/is-object";
import { getKimiIndex } from "./history";
import { buildKimiRequest } from "./request";
import { sessionIdOf } from "./turns";

const API = "openai-completions" as const;

export function kimiAuxiliaryEvents(session: Session): AuxiliaryRequestEvent[] {
  const index = getKimiIndex(session);
  return index.compactions.flatMap((compaction, position): AuxiliaryRequestEvent[] =>
    compaction.request === null
      ? []
      : [
          {
            kind: "auxiliary",
            index: position,
            purpose: "summary",
            entryId: compaction.request.id,
            beforeTurn: compaction.turnsBefore < index.turns.length ? compaction.turnsBefore + 1 : null,
            timestamp: compaction.request.timestamp,
            rule: "synth:compaction-summary",
            ruleId: "FM-KM-16",
            label: compaction.manual ? "Summariser request (/compact)" : "Summariser request",
            explanation:
              "Kimi Code's compaction request: the system prompt and tools of the main requests, the history it replaced, and its handoff instruction, which is a constant of its code and not in the wire file.",
          },
        ],
  );
}

/** The instruction of a captured summariser request: its last user message, when it is no reminder and the request asks for a handoff summary. */
function capturedInstruction(body: unknown): string | null {
  if (!isObject(body) || !Array.isArray(body.messages)) return null;
  const last = body.messages[body.messages.length - 1];
  if (!isObject(last) || last.role !== "user" || typeof last.content !== "string" || last.content.startsWith("<system-reminder>")) return null;
  return last.content.includes("summary") ? last.content : null;
}

/** Auxiliary row `position`: the summariser request of the compaction of that rank. */
export function buildKimiAuxiliaryRequest(session: Session, options: PipelineOptions, position: number, learnt: readonly LearntCapture[] = []): { request: BuiltRequest; taughtBy?: string[] } {
  const index = getKimiIndex(session);
  const compaction = index.compactions[position];
  if (!compaction?.request) throw new RangeError(`auxiliary request ${position} does not exist`);
  const taught = learnt.map((capture) => ({ source: capture.source, text: capturedInstruction(capture.body) })).find((item) => item.text !== null);
  const next = index.turns[compaction.turnsBefore] ?? index.turns[compaction.turnsBefore - 1];
  const built = buildKimiRequest(
    { turn: 0, request: compaction.request, history: compaction.history, systemPrompt: next?.systemPrompt ?? null, tools: next?.tools ?? null, usedTokens: 0, usage: null, compaction: null },
    sessionIdOf(session, options),
  );
  const missing = built.notRecorded.slice();
  const text = taught?.text ?? null;
  if (text === null) missing.push("compaction instruction");
  const messages = built.body.messages as unknown[];
  messages.push(text !== null ? { role: "user", content: text } : notRecorded("compaction instruction"));
  const instruction: ContextMessage = {
    message: { role: "user", content: [{ type: "text", text: text ?? "[compaction instruction: not recorded]" }] },
    provenance: {
      rule: "synth:compaction-instruction",
      entryId: compaction.request.id,
      ruleId: "FM-KM-16",
      explanation: text !== null
        ? "Kimi Code's handoff instruction, from a captured summariser request (it is a constant of its code, never in the wire file)."
        : "Kimi Code's handoff instruction is a constant of its code, not in the wire file: attach a captured summariser request to see its text.",
    },
  };
  const model = typeof compaction.request.raw.model === "string" ? { provider: typeof compaction.request.raw.provider === "string" ? compaction.request.raw.provider : "openai", modelId: compaction.request.raw.model } : null;
  const request: BuiltRequest = { api: API, body: built.body, messages: [...built.messages, instruction], dropped: [], model: resolveModel(model, API, options.modelOverrides), notRecorded: missing };
  return taught ? { request, taughtBy: [taught.source] } : { request };
}
