// An auxiliary request of the session shaped for the UI: opencode's title request (FM-OC-15) and
// summariser requests (CP-OC-17), rebuilt by the agent (src/core/agents/opencode), as pretty JSON with highlights —
// not-recorded markers, and the parts opencode synthesises rather than stores (the title
// request's fixed user text, `synth:title`).
import { formatRequestJson } from "../../core/export/request-json";
import type { PipelineOptions, Session } from "../../core/model";
import { analyzeSession } from "../../core/session/pipeline";
import { findAgent } from "../../core/session/agents";
import type { AuxiliaryRequestResult } from "./protocol";
import type { TextHighlight } from "../request/protocol";
import { notRecordedHighlights } from "../request/requestModel";

/** Timeline and details label of an auxiliary request, by purpose. */
const AUXILIARY_LABELS: Record<"title" | "summary", string> = {
  title: "title request",
  summary: "summariser request",
};

function synthesizedTextHighlights(jsonText: string, text: string, label: string): TextHighlight[] {
  const needle = JSON.stringify(text);
  const at = jsonText.indexOf(needle);
  return at < 0 ? [] : [{ kind: "synthesized", start: at, end: at + needle.length, label }];
}

export function auxiliaryRequest(session: Session, options: PipelineOptions, index: number): AuxiliaryRequestResult {
  const auxiliary = findAgent(session.formatId)?.auxiliary;
  if (!auxiliary) throw new Error(`Sessions of format "${session.formatLabel}" have no auxiliary requests.`);
  const event = analyzeSession(session, options).auxiliary?.[index];
  if (!event) throw new RangeError(`Auxiliary request ${index} does not exist.`);
  const built = auxiliary.build(session, options, index);
  const jsonText = formatRequestJson(built.request.body);
  const highlights = [...notRecordedHighlights(jsonText)];
  for (const synthesized of auxiliary.synthesizedTexts(event)) highlights.push(...synthesizedTextHighlights(jsonText, synthesized.text, synthesized.label));
  highlights.sort((a, b) => a.start - b.start);
  const result: AuxiliaryRequestResult = {
    index,
    purpose: event.purpose,
    label: AUXILIARY_LABELS[event.purpose],
    rule: event.rule,
    ruleId: event.ruleId,
    jsonText,
    highlights,
    notRecorded: built.request.notRecorded,
  };
  if (built.summariser) result.summariser = { conversation: built.summariser.conversation, priorSummary: built.summariser.priorSummary };
  return result;
}
