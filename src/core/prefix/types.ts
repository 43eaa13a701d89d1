// Types of prefix-stability analysis: cache segments of a request (PR-2), the comparison of two
// requests (PD-1), causes (PD-2) and the per-turn report. All plain data, except a request's
// segment list, which is shared with the requests around it (segment-list.ts).
import type { ApiId } from "../model";
import type { SegmentList } from "./segment-list";

/** How a segment's canonical value is derived from its source (no copies on the hot path). */
export type SegmentView =
  /** The source object as it is. */
  | "whole"
  /** The source object without its cache-marker keys. */
  | "strip"
  /** A message without its content keys (role and the message's other keys). */
  | "header"
  /** A string content seen as one text block `{type: textType, text}` (PD-5). */
  | "text-block";

/** The cache level a segment belongs to; a change invalidates it and every later level (PR-3). */
export type CacheLevel = "tools" | "system" | "schema" | "messages";

/** A cache marker removed from the canonical rendering (PD-5). */
export interface CacheMarker {
  /** "cache_control" (Anthropic) or "prompt_cache_breakpoint" (OpenAI GPT-5.6+). */
  kind: "cache_control" | "prompt_cache_breakpoint";
  /** The marker's TTL when it states one ("1h", "5m", "30m"), else null. */
  ttl: string | null;
}

/** One unit of the request in the provider's cache order. */
export interface CacheSegment {
  /** Where it is in the body: `tools[3]`, `system[0]`, `messages[12].content[0]`, `input[4]`, … */
  label: string;
  level: CacheLevel;
  /** Index in the body's message list (`messages`, `input`, `contents`), or null. */
  messageIndex: number | null;
  /** Hash of the canonical rendering (markers removed). */
  hash: number;
  /** UTF-8 bytes of the canonical rendering. */
  bytes: number;
  /** Tokens of the segment, framing included (PD-3). */
  tokens: number;
  /** Per-message framing tokens included in `tokens` (counted on the message's first segment). */
  framingTokens: number;
  /** Cache marker the segment carried, or null. */
  marker: CacheMarker | null;
  /** A content block in Anthropic's sense (breakpoints and the 20-block lookback count these). */
  isBlock: boolean;
  /** What is not recorded when the segment is a `$notRecorded` marker (PD-4), else null. */
  notRecorded: string | null;
  /** The body fragment the segment comes from; `segmentValue` derives the canonical value. */
  source: unknown;
  view: SegmentView;
  /** Block type used by the "text-block" view ("text", "input_text", "output_text"). */
  textType: string;
  /** How tokens are taken from the value: decoded text leaves, or the whole JSON (tool definitions). */
  tokenMode: "text" | "json";
}

/** A request re-expressed in cache order (PR-2 … PR-7). */
export interface SegmentedRequest {
  api: ApiId;
  /** `model` of the body, or null when the shape does not carry it (Google REST). */
  model: string | null;
  /** The segments in cache order; shared with the session's other requests, read-only. */
  segments: SegmentList<CacheSegment>;
  /** PR-7 settings, each as canonical JSON; absent settings are not listed. */
  settings: Record<string, string>;
  /** Top-level automatic cache marker (Anthropic CA-1), or null. */
  automaticCache: CacheMarker | null;
  /** OpenAI retention / GPT-5.6+ cache options, used by the simulation (CA-13, CA-14). */
  openaiCache: { retention: string | null; mode: string | null; ttl: string | null };
  /** Sum of segment bytes. */
  bytes: number;
  /** Sum of segment tokens plus reply priming (PD-3). */
  tokens: number;
  /** Reply-priming tokens included in `tokens` (OpenAI chat convention), never shared. */
  primingTokens: number;
  /** Token counter id and whether it is exact for this shape (TK-1/TK-3). */
  tokenizer: string;
  tokensExact: boolean;
  /** Framing constants were added (OpenAI convention): offsets are approximate (PD-3). */
  framingApproximate: boolean;
  /** Labels of `$notRecorded` segments (PD-4). */
  notRecorded: string[];
}

/** Result of comparing request N (previous) with N+1 (next), PD-1. */
export interface PrefixDiff {
  /** Bytes of N+1's canonical rendering. */
  bytes: number;
  /** Bytes N+1 shares with N from the start. */
  sharedBytes: number;
  tokens: number;
  /** Token offset of the first difference (= tokens of the shared byte prefix). */
  sharedTokens: number;
  tokensExact: boolean;
  /** Deepest JSON path of the first difference, e.g. `messages[12].content[0].text`; null: no break. */
  breakPath: string | null;
  /** Label of the segment holding the first difference. */
  breakSegment: string | null;
  /** Index of that segment in N+1's segment list (N's when N+1 ended earlier). */
  breakSegmentIndex: number | null;
  /** UTF-8 byte offset of the first difference inside that segment's canonical rendering. */
  breakByteOffsetInSegment: number | null;
  breakLevel: CacheLevel | null;
  /** N+1 ends inside N (it is a strict prefix of N). */
  nextIsPrefixOfPrevious: boolean;
}

export type PrefixCause =
  | "model-changed"
  | "settings-changed"
  | "tools-changed"
  | "history-rewritten"
  | "failed-turn-dropped"
  | "branch-switch"
  | "system-changed"
  | "insertion"
  | "note-removed"
  | "timestamp-changed"
  | "truncation"
  | "mutation";

/** Facts between two turns that only the caller (the pipeline) knows. */
export interface TurnFacts {
  /** A compaction, context edit or pruning lies between N and N+1. */
  compactionBetween?: boolean;
  branchSwitched?: boolean;
  droppedFailedTurn?: boolean;
  modelChanged?: boolean;
  /** Milliseconds between the two requests, when the caller computed it itself. */
  gapMs?: number | null;
}

export interface CauseReport {
  /** Primary cause (first match in PD-2 order), null when N+1 extends N. */
  cause: PrefixCause | null;
  /** Sub-cause, e.g. "date line", "billing header", "compaction". */
  detail: string | null;
  /** Sub-causes of every matched cause (e.g. system-changed: "date line"). */
  details: Partial<Record<PrefixCause, string>>;
  /** Every other matching condition. */
  contributing: PrefixCause[];
  /** PR-7 settings that differ. */
  settingsChanged: string[];
  /** The name Anthropic's cache diagnostics (CA-7) would use, when one corresponds. */
  diagnosticsName: "model_changed" | "system_changed" | "tools_changed" | "messages_changed" | null;
}
