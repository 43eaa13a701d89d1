// Reconstructed summariser requests of a recorded compaction (PI-R12, spec §5), shaped for the
// UI: each request as pretty JSON with its not-recorded highlights, plus the facts and lints of
// the reconstruction.
import { buildCompactionRequests } from "../core/compaction/pi/index";
import type { PipelineOptions, Session } from "../core/model";
import type { CompactionRequestsResult } from "./protocol";
import { notRecordedHighlights } from "./requestView";

const ROLE_LABELS: Record<string, string> = {
  history: "history summary",
  "turn-prefix": "turn prefix summary",
};

function yesNo(value: boolean): string {
  return value ? "yes" : "no";
}

export function compactionRequests(session: Session, options: PipelineOptions, entryId: string): CompactionRequestsResult {
  if (session.formatId !== "pi") return { available: false, entryId, requests: [], facts: [], lints: [] };
  const rebuild = buildCompactionRequests(session, options, entryId);
  const requests = rebuild.requests.map((request, index) => {
    const jsonText = JSON.stringify(request.body, null, 2);
    return {
      label: `${index + 1}. ${ROLE_LABELS[request.role] ?? request.role}`,
      jsonText,
      highlights: notRecordedHighlights(jsonText),
    };
  });
  const kept = rebuild.firstKeptEntryId ?? "—";
  const recordedKept = rebuild.recordedFirstKeptEntryId ?? "—";
  const facts = [
    { label: "requests", value: String(rebuild.requests.length) },
    { label: "api", value: rebuild.api },
    { label: "model", value: `${rebuild.model.provider}/${rebuild.model.id}` },
    { label: "boundary rule", value: rebuild.boundaryRule },
    { label: "first kept", value: kept === recordedKept ? kept : `${kept} (recorded ${recordedKept})` },
    { label: "computed cut", value: rebuild.computedCut.firstKeptEntryId ?? "—" },
    { label: "split turn", value: yesNo(rebuild.isSplitTurn) },
    {
      label: "tokens before",
      value: `${rebuild.tokensBefore.recorded ?? "—"} recorded · ${rebuild.tokensBefore.computed} computed`,
    },
    { label: "keep recent", value: String(rebuild.settings.keepRecentTokens) },
    { label: "reserve", value: String(rebuild.settings.reserveTokens) },
    { label: "files read", value: String(rebuild.fileLists.readFiles.length) },
    { label: "files modified", value: String(rebuild.fileLists.modifiedFiles.length) },
  ];
  return { available: true, entryId, requests, facts, lints: rebuild.lints };
}
