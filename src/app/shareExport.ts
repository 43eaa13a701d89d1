// Export and share of what the app shows, over the pure core (src/core/export, src/core/share,
// src/core/redact). Used by the pipeline worker and by the CLI (`export`, `share`, `open`), so both
// produce the same bytes. No DOM here: plain functions over a Session and PipelineOptions.
//   - exportRequest: the selected turn's request (or a compaction's summariser request) as the
//     Request view shows it (`formatRequestJson`, the view's own formatter), or as curl; redacted
//     by default, with the review list.
//   - buildShare / shareBundle: the `#v2=` fragment (or bundle file) of the current view; the
//     session cut to the branch up to the selected turn by default.
//   - sessionFromPayload: the Session a decoded payload holds, read by the same readers as a file.
import type { CompactionInstructions } from "../core/session/index";
import { defaultProfileOf, findAgent } from "../core/session/agents";
import { exportCurl } from "../core/export/curl";
import { findNotRecorded, notRecordedWarning } from "../core/export/not-recorded";
import { formatRequestJson } from "../core/export/request-json";
import type { ApiId, PipelineOptions, Session } from "../core/model";
import { analyzeSession, buildTurnRequest, type SessionAnalysis } from "../core/session/pipeline";
import { readSessionText } from "../core/session/index";
import { redactJson } from "../core/redact/json";
import { secretDetector } from "../core/check/secretDetector";
import type { RedactionFinding } from "../core/redact/types";
import { bundleFileName, encodeBundle } from "../core/share/bundle";
import { buildSharePayload } from "../core/share/build";
import { encodeShareFragment } from "../core/share/fragment";
import { linkSizeInfo, type LinkSizeInfo } from "../core/share/link-size";
import type { ShareSimulation, ShareViewV1 } from "../core/share/payload-v1";
import { branchSession, fileOrderSession, shareSessionText } from "../core/share/session-lines";
import { stringifyWithTexts } from "../core/text/text";
import type { SharePayload } from "../core/share/versions";
import { simulatedRequestBody, type SimulatedRequestRef } from "./simulation";

// ---------------------------------------------------------------------------------------------
// Export

/** What to export: a turn's main request, or summariser request `index` of a compaction. */
export type ExportTarget =
  | { kind: "turn"; turn: number }
  | { kind: "compaction"; entryId: string; index: number }
  /** A request of the compaction simulator: a summariser request or the request after compaction. */
  | { kind: "simulation"; simulation: SimulatedRequestRef };

export type ExportFormat = "json" | "curl";

export interface ExportParams {
  target: ExportTarget;
  format: ExportFormat;
  /** Mask secrets (on by default in the app and the CLI). */
  redact: boolean;
  /** Finding ids the user consciously chose to keep visible. */
  unmasked: string[];
  /** Summariser instruction slots from attached captures (compaction targets). */
  instructions?: CompactionInstructions | null;
}

export interface ExportResult {
  format: ExportFormat;
  /** The JSON text (exactly the Request view's text when nothing is masked) or the curl command. */
  text: string;
  /** Suggested download name: `<session>-turn-<N>.request.json`, `…-compaction-<id>-<k>.request.json`. */
  fileName: string;
  api: ApiId;
  findings: RedactionFinding[];
  /** Not-recorded markers, missing model id, … (see exportCurl). */
  warnings: string[];
}

/** The session file's name without directories and extension ("session" when empty). */
function sessionBaseName(fileName: string): string {
  return fileName.replace(/^.*[\\/]/, "").replace(/\.[^.]{1,16}$/, "") || "session";
}

function exportFileName(fileName: string, target: ExportTarget): string {
  const base = sessionBaseName(fileName);
  if (target.kind === "turn") return `${base}-turn-${target.turn}.request.json`;
  if (target.kind === "simulation") {
    const { settings, request } = target.simulation;
    const which = request === "after" ? "after-compaction" : `summariser-${request + 1}`;
    return `${base}-turn-${settings.turn}-simulated-${settings.policyId}-${which}.request.json`;
  }
  const id = target.entryId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
  return `${base}-compaction-${id}-${target.index + 1}.request.json`;
}

function targetBody(session: Session, options: PipelineOptions, params: ExportParams): { api: ApiId; body: unknown } {
  const target = params.target;
  if (target.kind === "turn") {
    const built = buildTurnRequest(session, options, target.turn);
    return { api: built.api, body: built.body };
  }
  if (target.kind === "simulation") return simulatedRequestBody(session, options, target.simulation);
  const standaloneRebuild = findAgent(session.formatId)?.recorded?.standaloneRebuild;
  if (!standaloneRebuild) throw new Error(`Summariser requests of ${session.formatLabel} sessions cannot be exported.`);
  const rebuild = standaloneRebuild(session, params.instructions ? { ...options, instructions: params.instructions } : options, target.entryId);
  const request = rebuild.requests[target.index];
  if (!request) throw new RangeError(`Compaction ${target.entryId} has no summariser request ${target.index + 1}.`);
  return { api: rebuild.api, body: request.body };
}

/** A request body with its secrets masked as Export masks them, and the review list. */
export function redactRequestBody(body: unknown, unmasked: string[]): { value: unknown; findings: RedactionFinding[] } {
  return redactJson(body, { unmasked, catalogue: secretDetector(), path: "request" });
}

export function exportRequest(session: Session, options: PipelineOptions, params: ExportParams): ExportResult {
  const { api, body } = targetBody(session, options, params);
  let findings: RedactionFinding[] = [];
  let shown: unknown = body;
  if (params.redact) {
    const redacted = redactRequestBody(body, params.unmasked);
    shown = redacted.value;
    findings = redacted.findings;
  }
  const fileName = exportFileName(session.fileName, params.target);
  if (params.format === "curl") {
    const curl = exportCurl(api, shown);
    return { format: "curl", text: curl.command, fileName: fileName.replace(/\.json$/, ".sh"), api, findings, warnings: curl.warnings };
  }
  const warning = notRecordedWarning(findNotRecorded(shown));
  // formatRequestJson is the Request view's formatter: unredacted, the bytes are the view's.
  return { format: "json", text: formatRequestJson(shown), fileName, api, findings, warnings: warning ? [warning] : [] };
}

// ---------------------------------------------------------------------------------------------
// Share

export interface ShareParams {
  /** Selected turn, or null (a compaction or nothing selected). */
  turn: number | null;
  /** Centre tab id. */
  tab: string;
  scope: "branch" | "full";
  redact: boolean;
  unmasked: string[];
  /** Length of the page URL the fragment is appended to (origin + path), for the size level. */
  pageUrlChars: number;
  simulation?: ShareSimulation | null;
  /** Summariser instruction texts from attached captures: the link reopens with them. */
  instructions?: CompactionInstructions | null;
}

export interface ShareResult {
  /** `#v2=…`, or null when the payload is above the codec's cap (then only a bundle works). */
  fragment: string | null;
  size: LinkSizeInfo | null;
  findings: RedactionFinding[];
  scope: "branch" | "full";
  /** Lines of the session in the payload. */
  lineCount: number;
  /** Why no fragment could be made (payload above the cap). */
  error?: string;
}

/**
 * The view state and the entry the branch cut ends at. Branch scope ends at the selected turn's
 * entry, which is then the last entry and so the default leaf of the shared session (PI-P1): the
 * view's leafId is null. Without a selected turn the cut ends at the branch's leaf.
 */
function shareInput(session: Session, options: PipelineOptions, analysis: SessionAnalysis, params: ShareParams) {
  const turnEntry = params.turn === null ? null : (analysis.turns[params.turn - 1]?.entryId ?? null);
  const leafEntryId = turnEntry ?? analysis.leafId ?? session.entries.at(-1)?.id;
  const branch = params.scope === "branch" && leafEntryId !== undefined && leafEntryId !== null;
  const view: ShareViewV1 = {
    turn: params.turn,
    tab: params.tab,
    profile: options.profile ?? defaultProfileOf(session),
    provider: options.api ?? null,
    notes: options.notes === true,
    leafId: branch ? null : (options.leafId ?? null),
    header: options.header ?? null,
  };
  if (params.simulation) view.simulation = params.simulation;
  if (params.instructions) view.instructions = params.instructions;
  return { view, branch, leafEntryId: leafEntryId ?? undefined };
}

interface BranchCut {
  cut: "path" | "file";
  leafEntryId: string;
}

/** Whether `cut` opens with `turn` under the same number, its request the same as in `session`. */
function reproduces(cut: Session, session: Session, options: PipelineOptions, turn: number): boolean {
  try {
    if (analyzeSession(cut, options).turns.length < turn) return false;
    return stringifyWithTexts(buildTurnRequest(cut, options, turn).body) === stringifyWithTexts(buildTurnRequest(session, options, turn).body);
  } catch {
    return false;
  }
}

/**
 * How the branch up to `turn` is cut so that it reopens as the same turn with the same request:
 * the entries on the parent path (the smallest); else every entry in file order up to the turn's
 * entry, or a little past it (an agent may count a turn once the lines after its answer are
 * read), up to the next turn's. Null when none does: the whole session is shared.
 */
function branchCut(session: Session, options: PipelineOptions, analysis: SessionAnalysis, turn: number | null, leafEntryId: string): BranchCut | null {
  if (turn === null || reproduces(branchSession(session, leafEntryId), session, options, turn)) return { cut: "path", leafEntryId };
  const at = session.entries.findIndex((entry) => entry.id === leafEntryId);
  const nextEntry = analysis.turns[turn]?.entryId;
  const next = nextEntry === undefined ? session.entries.length : session.entries.findIndex((entry) => entry.id === nextEntry);
  for (const end of new Set([at, at + 1, at + 2, next - 1])) {
    const last = session.entries[end];
    if (end < at || !last) continue;
    if (reproduces(fileOrderSession(session, last.id), session, options, turn)) return { cut: "file", leafEntryId: last.id };
  }
  return null;
}

function sharePayload(session: Session, options: PipelineOptions, analysis: SessionAnalysis, params: ShareParams) {
  const input = shareInput(session, options, analysis, params);
  const cut = input.branch && input.leafEntryId ? branchCut(session, options, analysis, params.turn, input.leafEntryId) : null;
  // No cut reproduces the turn: the whole session, on the branch shown.
  const view = input.branch && !cut ? { ...input.view, leafId: options.leafId ?? null } : input.view;
  return buildSharePayload({
    session,
    view,
    scope: cut ? "branch" : "full",
    ...(cut ?? {}),
    redact: params.redact,
    unmasked: params.unmasked,
  });
}

export function buildShare(session: Session, options: PipelineOptions, params: ShareParams, analysis?: SessionAnalysis): ShareResult {
  const built = sharePayload(session, options, analysis ?? analyzeSession(session, options), params);
  const base = { findings: built.findings, scope: built.payload.session.scope, lineCount: built.payload.session.lines.length };
  try {
    const fragment = encodeShareFragment(built.payload);
    return { ...base, fragment, size: linkSizeInfo(fragment, { pageUrlChars: params.pageUrlChars }) };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return { ...base, fragment: null, size: null, error: `${error.message}.` };
  }
}

/** The reproduction bundle of the same view (for links too long for browsers). */
export function shareBundle(session: Session, options: PipelineOptions, params: ShareParams, analysis?: SessionAnalysis): { text: string; fileName: string } {
  const built = sharePayload(session, options, analysis ?? analyzeSession(session, options), params);
  return { text: encodeBundle(built.payload), fileName: bundleFileName(built.payload) };
}

// ---------------------------------------------------------------------------------------------
// Opening

/** The session a decoded payload carries, read with the reader named in it. */
export function sessionFromPayload(payload: SharePayload): Session {
  return readSessionText(shareSessionText(payload.session), payload.session.fileName, payload.session.formatId);
}
