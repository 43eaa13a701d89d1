// The finishing step of a JSONL line reader, written once: at the end of the file the text store
// gives back its unused room (or is released when it kept nothing), the end-of-file warnings are
// added (an empty file, a truncated last line, lines but nothing of the format in them), and the
// Session is assembled from what was read, naming the store only when it holds texts.
import { DEFAULT_READ_BOUNDS } from "../intake/bounds";
import type { ReaderWarning, Session } from "../model";
import { isEmptyStore } from "../text/keptPlaces";
import { releaseTextStore, trimTextStore, type TextStore } from "../text/storedText";
import { finishLineWarnings } from "./jsonl-object";

/** The store trimmed to what it holds, or released when it holds nothing (then null: forget it). */
export function finishTextStore(store: TextStore | null): TextStore | null {
  if (!store) return null;
  if (isEmptyStore(store)) {
    releaseTextStore(store);
    return null;
  }
  trimTextStore(store);
  return store;
}

/**
 * End-of-file warnings: an empty file, a truncated (bad) last line, and `nothingRead` (the reason
 * to give) when the file had lines but none the reader could use; null when it found some.
 */
export function finishReadWarnings(warnings: ReaderWarning[], lastLine: number, lastBadLine: number, nothingRead: string | null): void {
  // A write cut short (agent killed mid-append) leaves a partial last line.
  finishLineWarnings(warnings, lastLine, lastBadLine);
  if (lastLine > 0 && nothingRead !== null) warnings.push({ line: 0, reason: nothingRead });
}

/** What a reader knows of its file besides the entries and warnings. */
export interface ReadFacts {
  formatId: string;
  formatLabel: string;
  fileName: string;
  formatVersion: number | null;
  header: Record<string, unknown> | null;
  /** False: the header was made from the entries, not read as a line (Session.headerIsLine). */
  headerIsLine?: false;
  /** Lines looked at (blank and bad ones included). */
  lineCount: number;
}

/**
 * The Session a line reader hands out (at the end, or as a snapshot while reading). Every value
 * handed out (snapshots of a followed file included) names the same store, which goes on filling.
 */
/**
 * At most `max` warnings of each kind (a reason with its numbers left out); those beyond are
 * counted in one warning per kind, so a file of a million bad lines gives a bounded list.
 */
export function capWarningsPerKind(warnings: Session["warnings"], max = DEFAULT_READ_BOUNDS.maxWarningsPerKind): Session["warnings"] {
  if (warnings.length <= max) return warnings;
  const counts = new Map<string, { first: string; beyond: number }>();
  const kept: Session["warnings"] = [];
  for (const warning of warnings) {
    const kind = warning.reason.replace(/\d+/g, "#");
    const seen = counts.get(kind) ?? { first: warning.reason, beyond: -max };
    seen.beyond++;
    counts.set(kind, seen);
    if (seen.beyond <= 0) kept.push(warning);
  }
  for (const { first, beyond } of counts.values()) {
    if (beyond > 0) kept.push({ line: 0, reason: `${beyond} more warnings of this kind not listed (at most ${max} of a kind are kept): ${first}` });
  }
  return kept;
}

export function readerSession(facts: ReadFacts, entries: Session["entries"], warnings: Session["warnings"], store: TextStore | null = null): Session {
  const session: Session = {
    formatId: facts.formatId,
    formatLabel: facts.formatLabel,
    fileName: facts.fileName,
    formatVersion: facts.formatVersion,
    header: facts.header,
    entries,
    warnings: capWarningsPerKind(warnings),
    lineCount: facts.lineCount,
  };
  if (facts.headerIsLine === false) session.headerIsLine = false;
  if (store && !isEmptyStore(store)) session.textStore = store;
  return session;
}
