// Request dumps as ground truth (HS-32 … HS-34, HS-49): each `request_dump_*.json` beside the
// session is matched to the turn whose request it is — same session, same number of messages
// after the system message — and its body compared with the rebuilt one, key by key. The result
// per turn is "equal" or the first path where they differ. Keys of the dump that the storage
// cannot know (max_tokens, extra_body, tool_choice, …: the agent's settings, not stored) are
// listed as "not rebuilt", not as differences; `$notRecorded` markers of the rebuilt body are
// likewise listed, not compared.
import type { RequestDumpCheck } from "../../descriptor";
import type { PipelineOptions, Session } from "../../../model";
import { isNotRecorded } from "../../../model";
import { isObject } from "../../../util/is-object";
import { buildStorageTurnRequest, storageTurns } from "./pipeline";
import { hermesStorageHeaderOf } from "./session";
import type { HermesRequestDump } from "./store";

export type DumpCheck = RequestDumpCheck;

/** Messages after the leading system message(s) of a body. */
function conversationLength(body: Record<string, unknown>): number {
  const list = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  let start = 0;
  while (start < list.length && isObject(list[start]) && (list[start] as Record<string, unknown>).role === "system") start++;
  return list.length - start;
}

function short(value: unknown): string {
  const text = value === undefined ? "(absent)" : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** First path where `a` (rebuilt) and `b` (dump) differ; markers of `a` are collected, not compared. */
function firstDifference(a: unknown, b: unknown, path: string, markers: string[]): { path: string; detail: string } | null {
  if (isNotRecorded(a)) {
    markers.push(path);
    return null;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length || i >= b.length) return { path: `${path}[${i}]`, detail: `rebuilt ${short(a[i])} / dump ${short(b[i])}` };
      const found = firstDifference(a[i], b[i], `${path}[${i}]`, markers);
      if (found) return found;
    }
    return null;
  }
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const key of keys) {
      const found = firstDifference(a[key], b[key], path === "" ? key : `${path}.${key}`, markers);
      if (found) return found;
    }
    return null;
  }
  if (a === b) return null;
  return { path: path || "(body)", detail: `rebuilt ${short(a)} / dump ${short(b)}` };
}

/** Compares one dump with the rebuilt request of `turn`. */
function compareDump(session: Session, options: PipelineOptions, dump: HermesRequestDump, turn: number): DumpCheck {
  const rebuilt = buildStorageTurnRequest(session, options, turn).body;
  const notRebuilt = Object.keys(dump.body).filter((key) => !(key in rebuilt));
  const markers: string[] = [];
  let found: { path: string; detail: string } | null = null;
  for (const key of Object.keys(rebuilt)) {
    found = firstDifference(rebuilt[key], dump.body[key], key, markers);
    if (found) break;
  }
  return {
    fileName: dump.fileName,
    reason: dump.reason,
    turn,
    equal: found === null,
    firstDifference: found?.path ?? null,
    detail: found?.detail ?? null,
    notRebuilt,
    notRecorded: markers,
    unmatched: null,
  };
}

/** Every dump of the session matched to its turn and compared, in file-name (time) order. */
export function checkRequestDumps(session: Session, options: PipelineOptions): DumpCheck[] {
  const header = hermesStorageHeaderOf(session);
  // Without dumps there is nothing to match: the turns are not walked (this runs for every request shown).
  if (!header || header.dumps.length === 0) return [];
  const turns = storageTurns(session);
  const dumps = [...header.dumps].sort((a, b) => a.fileName.localeCompare(b.fileName));
  return dumps.map((dump) => {
    const length = conversationLength(dump.body);
    const candidates = turns.filter((t) => {
      const segment = header.segments[t.segment]!;
      return (dump.sessionId === null || segment.sessionId === dump.sessionId) && t.context.length === length;
    });
    // Several candidates only when the same count occurs in two segments of one session (in-place compaction): the later one.
    const turn = candidates[candidates.length - 1];
    if (!turn) {
      return {
        fileName: dump.fileName,
        reason: dump.reason,
        turn: null,
        equal: false,
        firstDifference: null,
        detail: null,
        notRebuilt: [],
        notRecorded: [],
        unmatched: `no turn of session ${dump.sessionId ?? "?"} sends ${length} messages after the system prompt`,
      };
    }
    return compareDump(session, options, dump, turn.turn);
  });
}

/** One line per dump for the CLI and the UI: "turn 3: equal" / "turn 3: differs at messages[2].content (…)". */
export function describeDumpCheck(check: DumpCheck): string {
  const head = `${check.fileName}${check.reason ? ` (${check.reason})` : ""}`;
  if (check.turn === null) return `${head}: not matched — ${check.unmatched}`;
  const extra = check.notRebuilt.length > 0 ? `; not rebuilt (settings not stored): ${check.notRebuilt.join(", ")}` : "";
  if (check.equal) return `turn ${check.turn}: equal — ${head}${extra}`;
  return `turn ${check.turn}: differs at ${check.firstDifference} (${check.detail}) — ${head}${extra}`;
}

