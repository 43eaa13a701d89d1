// The findings of one turn's prefix report: a break is expected (compaction, model switch, user
// edit), a moved reply-language note, or unexpected; plus cache expiry, a recorded cache read the
// simulation cannot explain, and an unfinished summary that is still sent.
import type { ContextMessage } from "../model";
import { NOTE_RULE } from "../notes/insert";
import { contextMessageText } from "../prefix/causes";
import type { PrefixTurnReport } from "../prefix/analyze";
import type { ServerVerdictTally } from "../prefix/server-verdict";
import { causeInWords } from "../prefix/cause-words";
import { detectUnfinishedSummaries } from "../simulate/findings/unfinished-summary";
import { EXPECTED_BREAK_CAUSES, checkKind, type CheckFinding, type CheckKindId } from "./kinds";

export interface TurnPlace {
  turn: number;
  line: number | null;
  entryId: string | null;
}

function finding(place: TurnPlace | null, kind: CheckKindId, message: string, extra: Partial<CheckFinding> = {}): CheckFinding {
  return {
    turn: place?.turn ?? null,
    kind,
    severity: checkKind(kind).severity,
    message,
    line: place?.line ?? null,
    entryId: place?.entryId ?? null,
    path: null,
    cause: null,
    ruleId: null,
    serverVerdict: null,
    serverMissedTokens: null,
    ...extra,
  };
}

/** The server's verdict of a turn, carried on every finding made from its report. */
function verdictOf(report: PrefixTurnReport): Pick<CheckFinding, "serverVerdict" | "serverMissedTokens"> {
  return { serverVerdict: report.serverVerdict, serverMissedTokens: report.serverMissedTokens };
}

function noteTexts(messages: readonly ContextMessage[] | null): Map<string, number> {
  const out = new Map<string, number>();
  (messages ?? []).forEach((m, index) => {
    if (m.provenance.rule === NOTE_RULE) out.set(contextMessageText(m), index);
  });
  return out;
}

/**
 * A note moved when the break involves a note: the previous request held a note the new one no
 * longer holds (or holds elsewhere), or the new one holds a note before the end of what the
 * previous request sent.
 */
export function noteMoved(report: PrefixTurnReport, previous: readonly ContextMessage[] | null, next: readonly ContextMessage[] | null): boolean {
  if (report.breakPath === null || !previous || !next) return false;
  const causes = [report.cause, ...report.contributing];
  if (!causes.includes("note-removed") && !causes.includes("insertion")) return false;
  const before = noteTexts(previous);
  const after = noteTexts(next);
  for (const [text, index] of before) if (after.get(text) !== index) return true;
  for (const [text, index] of after) if (!before.has(text) && index < previous.length) return true;
  return false;
}

export function breakFindings(report: PrefixTurnReport, place: TurnPlace, previous: readonly ContextMessage[] | null, next: readonly ContextMessage[] | null): CheckFinding[] {
  if (report.cause === null) return [];
  // A changed setting (PR-7) breaks the cache although the content extends the previous request.
  const where =
    report.breakPath !== null
      ? `at ${report.breakPath}, ${report.sharedTokens} of the previous request's tokens still shared`
      : `in the request settings (${report.settingsChanged.join(", ") || "model"}), the content extends the previous request`;
  const words = causeInWords(report.cause, report.causeDetail);
  const extra = { path: report.breakPath, cause: report.cause, ...verdictOf(report) };
  if (noteMoved(report, previous, next)) return [finding(place, "note-moved", `a reply-language note moved: prefix break ${where} (${words})`, extra)];
  if (EXPECTED_BREAK_CAUSES.has(report.cause)) return [finding(place, "expected-prefix-break", `prefix break (${words}) ${where}`, extra)];
  const contributing = report.contributing.length > 0 ? `; also ${report.contributing.join(", ")}` : "";
  return [finding(place, "unexpected-prefix-break", `unexpected prefix break: ${words}${contributing}, ${where}`, extra)];
}

export function cacheFindings(report: PrefixTurnReport, place: TurnPlace): CheckFinding[] {
  const out: CheckFinding[] = [];
  if (report.expiry?.status === "expired") {
    const minutes = report.gapMs === null ? "?" : (report.gapMs / 60000).toFixed(1);
    out.push(finding(place, "cache-expired", `${minutes} min since the previous request: past the cache lifetime (${report.expiry.rule})`, { ruleId: report.expiry.ruleId, ...verdictOf(report) }));
  }
  const comparison = report.usageComparison;
  // A prediction over a request whose system prompt or tools are not recorded counts them as 0
  // tokens, so it cannot be held against the recorded read.
  if (comparison && !comparison.agrees && comparison.classification === "provider-side" && report.notRecorded.length === 0) {
    out.push(
      finding(place, "cache-read-mismatch", `recorded cache read ${comparison.recordedRead} tokens, predicted ${comparison.predictedRead}: ${comparison.explanation}`, verdictOf(report)),
    );
  }
  return out;
}

/** The server's verdict where it disagrees with the rebuilt requests, and a cache miss nothing explains. */
export function serverVerdictFindings(report: PrefixTurnReport, place: TurnPlace): CheckFinding[] {
  if (report.serverNote === null) return [];
  const extra = { path: report.breakPath, cause: report.cause, ...verdictOf(report) };
  if (report.serverAgreement === "disagree") return [finding(place, "server-verdict-disagrees", report.serverNote, extra)];
  if (report.unexplainedMiss) return [finding(place, "unexplained-cache-miss", report.serverNote, extra)];
  return [];
}

/** The session's agreement count, once, when any turn records a verdict. */
export function serverAgreementFinding(tally: ServerVerdictTally): CheckFinding[] {
  if (tally.agree + tally.disagree + tally.inconclusive === 0) return [];
  const message = `the provider's cache verdicts recorded in the file: ${tally.agree} agree with the rebuilt requests, ${tally.disagree} disagree, ${tally.inconclusive} inconclusive; ${tally.noVerdict} turns record none`;
  return [finding(null, "server-verdict-agreement", message)];
}

/** Unfinished summaries in this turn's context that were not in the previous one (reported once). */
export function unfinishedSummaryFindings(messages: readonly ContextMessage[], place: TurnPlace, seen: Set<string>): CheckFinding[] {
  const out: CheckFinding[] = [];
  for (const found of detectUnfinishedSummaries(messages)) {
    const key = found.entryId ?? `#${found.messageIndex}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(
      finding(place, "unfinished-summary-in-scope", `an errored or unfinished summary (${found.reason}) is sent as message ${found.messageIndex}`, {
        entryId: found.entryId ?? place.entryId,
        ruleId: "CP-OC-8",
      }),
    );
  }
  return out;
}

export { finding as makeFinding };
