// What a session file holds that this version of Contextscope reads, skips on purpose, or does not
// know: every entry's record type counted against its agent's catalogue (the descriptor's
// `records`), the lines its reader skipped on purpose (`Session.skippedLines`), and the agent
// versions the file names, each against the newest version verified end to end (the descriptor's
// `newestVerified`). `check` prints it as a record and fails on unknown types when asked;
// the app says it in the session summary. A session of an agent without a catalogue has no report.
import type { Session } from "../model";
import { findAgent } from "./agents";
import { compareVersions } from "./versionOrder";

interface RecordCount {
  type: string;
  count: number;
}

export interface RecordReport {
  /** The agent whose files these are ("Claude Code"). */
  agent: string;
  /** Types read, in the order first met. */
  read: RecordCount[];
  /** Types and lines skipped on purpose, each with why. */
  skipped: (RecordCount & { why: string })[];
  /** Types neither read nor known to be skippable, each with the first line that has one. */
  unknown: (RecordCount & { firstLine: number })[];
  /** Agent versions the file names, in the order first met. */
  versions: string[];
  /** The newest version of the agent verified end to end, when one is recorded. */
  newestVerified: string | null;
  /** The versions the file names that are newer than `newestVerified`, in the order first met. */
  newerThanVerified: string[];
}

/** The report of `session`, or null when its agent has no catalogue of record types. */
export function recordReport(session: Session): RecordReport | null {
  const agent = findAgent(session.formatId);
  const catalogue = agent?.records;
  if (!agent || !catalogue) return null;
  const counts = new Map<string, { count: number; firstLine: number }>();
  for (const entry of session.entries) {
    const seen = counts.get(entry.type);
    if (seen) seen.count += 1;
    else counts.set(entry.type, { count: 1, firstLine: entry.line });
  }
  const versions = catalogue.versions(session);
  // The agent's own program is named first; its versions are the ones a file names.
  const newestVerified = agent.newestVerified?.[0]?.version ?? null;
  const newerThanVerified = newestVerified === null ? [] : versions.filter((version) => (compareVersions(version, newestVerified) ?? 0) > 0);
  const report: RecordReport = { agent: agent.label, read: [], skipped: [], unknown: [], versions, newestVerified, newerThanVerified };
  for (const [type, { count, firstLine }] of counts) {
    const why = catalogue.skipped[type];
    if (catalogue.read.includes(type)) report.read.push({ type, count });
    else if (why !== undefined) report.skipped.push({ type, count, why });
    else report.unknown.push({ type, count, firstLine });
  }
  for (const lines of session.skippedLines ?? []) report.skipped.push({ type: lines.what, count: lines.count, why: lines.why });
  return report;
}

/**
 * The unknown record types in plain words — "412 lines of 3 types this version of Contextscope
 * does not read: x, y, z" — or null when there are none.
 */
export function unknownRecordsSentence(report: RecordReport): string | null {
  if (report.unknown.length === 0) return null;
  const lines = report.unknown.reduce((sum, item) => sum + item.count, 0);
  const types = report.unknown.length === 1 ? "1 type" : `${report.unknown.length} types`;
  const names = report.unknown.map((item) => `${item.type} (${item.count}, first on line ${item.firstLine})`).join(", ");
  return `${lines} ${lines === 1 ? "line" : "lines"} of ${types} this version of Contextscope does not read: ${names}`;
}

/** The versions in plain words ("Claude Code 2.1.143"), or null when the file names none. */
export function versionsSentence(report: RecordReport): string | null {
  if (report.versions.length === 0) return null;
  return `written by ${report.agent} ${report.versions.join(", ")}`;
}

/**
 * The versions newer than the newest verified, in plain words — "Claude Code 2.1.400 is newer than
 * the newest version verified, 2.1.332" — or null when the file names none newer.
 */
export function newerVersionSentence(report: RecordReport): string | null {
  const newer = report.newerThanVerified;
  if (newer.length === 0 || report.newestVerified === null) return null;
  const named = `${report.agent} ${newer.join(", ")}`;
  return `${named} ${newer.length === 1 ? "is" : "are"} newer than the newest version verified, ${report.newestVerified}`;
}
