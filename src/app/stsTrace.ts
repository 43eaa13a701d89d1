// A session as the Hugging Face session-trace (STS) file the page's Export panel offers and the
// CLI's `export --format sts` writes (src/core/export/sts): the same text in both, redacted as asked.
import { sessionStsTrace } from "../core/export/sts/writer";
import type { PipelineOptions, Session } from "../core/model";
import type { RedactionFinding } from "../core/redact/types";

export interface StsExportParams {
  redact: boolean;
  unmasked: string[];
}

export interface StsExport {
  fileName: string;
  text: string;
  messages: number;
  findings: RedactionFinding[];
}

/** The file name offered: the session's, with the trace suffix. */
function stsFileName(sessionFileName: string): string {
  const base = sessionFileName.replace(/\.[^./\\]+$/, "") || "session";
  return `${base}.sts.jsonl`;
}

export function exportStsFile(session: Session, options: PipelineOptions, params: StsExportParams): StsExport {
  const trace = sessionStsTrace(session, { pipeline: options, redact: params.redact, unmasked: params.unmasked });
  return { fileName: stsFileName(session.fileName), text: trace.text, messages: trace.messages, findings: trace.findings };
}
