// An auxiliary request of a session (opencode's title and summariser requests) for the page. Types only.
import type { PipelineOptions } from "../../core/model";
import type { TextHighlight } from "../request/protocol";

/** An auxiliary request of the session (opencode title or summariser request), for the UI. */
export interface AuxiliaryRequestResult {
  index: number;
  purpose: "title" | "summary";
  /** "title request" / "summariser request". */
  label: string;
  rule: string;
  ruleId: string;
  jsonText: string;
  highlights: TextHighlight[];
  notRecorded: string[];
  /** Summariser requests: the rebuilt `<conversation>` text and the prior summary (CP-OC-16, CP-OC-20). */
  summariser?: { conversation: string; priorSummary: string | null };
}

export interface AuxiliaryMethods {
  /** Auxiliary request `index` of `SessionAnalysis.auxiliary` (opencode title / summariser). */
  auxiliaryRequest: { params: { options: PipelineOptions; index: number }; result: AuxiliaryRequestResult };
}
