// The findings of the session's recorded compactions: one that did not make the next request
// smaller, and the simulator's findings on each compaction's summariser request(s), rebuilt with
// the recording agent's own rule (src/core/session/simulate/recorded-rebuild.ts; pi: its standalone
// rebuild, checked for secrets since it carries no finding inputs).
import { findAgent } from "../session/agents";
import type { CompactionEvent, PipelineOptions, Session } from "../model";
import { checkSecrets, checkSummariserRequests } from "../simulate/findings/index";
import { rebuildRecordedCompaction, timelineRebuildPolicy } from "../session/simulate/recorded-rebuild";
import type { Finding } from "../simulate/types";
import { CHECK_KIND_IDS, type CheckFinding, type CheckKindId } from "./kinds";
import { makeFinding, type TurnPlace } from "./turnFindings";

function isCheckKind(id: string): id is CheckKindId {
  return (CHECK_KIND_IDS as readonly string[]).includes(id);
}

/** The first request after the compaction is not smaller than the last one before it. */
export function noReductionFinding(event: CompactionEvent, tokensByTurn: ReadonlyMap<number, number>, place: TurnPlace | null): CheckFinding | null {
  if (event.beforeTurn === null || event.beforeTurn < 2) return null;
  const before = tokensByTurn.get(event.beforeTurn - 1);
  const after = tokensByTurn.get(event.beforeTurn);
  if (before === undefined || after === undefined || after < before) return null;
  return makeFinding(place, "compaction-no-reduction", `compaction ${event.entryId} did not reduce the context: turn ${event.beforeTurn - 1} sent ${before} tokens, turn ${event.beforeTurn} (after it) ${after}`, {
    entryId: event.entryId,
  });
}

function fromSimulator(found: Finding, event: CompactionEvent, place: TurnPlace | null): CheckFinding | null {
  if (!isCheckKind(found.id)) return null;
  return makeFinding(place, found.id, `compaction ${event.entryId}: ${found.message}`, {
    entryId: event.entryId,
    path: found.location?.path ?? null,
    ruleId: found.ruleId ?? null,
  });
}

/** The simulator's findings on the summariser request(s) of one recorded compaction. */
export function summariserFindings(session: Session, options: PipelineOptions, event: CompactionEvent, place: TurnPlace | null): CheckFinding[] {
  const out: CheckFinding[] = [];
  const push = (found: Finding): void => {
    const converted = fromSimulator(found, event, place);
    if (converted) out.push(converted);
  };
  try {
    if (timelineRebuildPolicy(session, event.entryId) !== null) {
      const rebuild = rebuildRecordedCompaction(session, options, event.entryId);
      if (!rebuild.available) return out;
      checkSummariserRequests(rebuild.requests).forEach(push);
      if (rebuild.keptMatches === false) {
        out.push(
          makeFinding(place, "compaction-kept-mismatch", `compaction ${event.entryId}: the rebuilt cut keeps ${rebuild.simulatedKept.join(", ") || "nothing"}; the record names ${rebuild.recordedKept.join(", ")}`, {
            entryId: event.entryId,
          }),
        );
      }
      return out;
    }
    const standalone = findAgent(session.formatId)?.recorded?.standaloneRebuild;
    if (!standalone) return out;
    const rebuild = standalone(session, options, event.entryId);
    rebuild.requests.forEach((request, index) => checkSecrets(request.body, index, `${request.role} request`).forEach(push));
  } catch {
    // A compaction that cannot be rebuilt (a damaged record) has no summariser findings; the
    // `requests` command names why.
  }
  return out;
}
