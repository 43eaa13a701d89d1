// The fork's bounded compaction planner (Shodocan/opencode `CompactionPlanner.plan`,
// compaction-policies.md CP-OC-31, docs/compaction-policies/opencode.md "Chunked planner"): the
// history before the latest user turn is cut into at most `maxChunks` chunks on whole user-turn
// boundaries, each chunk's summariser request admitted by the fork's budget check with the
// summary output allowance and a worst-case rolling-summary reserve. Pure: no row is changed.
//
// The fork measures everything with one estimator: ceil(chars / 4) of the canonical JSON of a
// request projection (sorted keys, undefined dropped), plus the reserve in tokens. The projection
// of a stored message keeps only the model-visible fields of each part (see `chatOfMessage`).
import { canonicalJson } from "../../../util/canonical-json";
import { sha256Hex } from "../../../util/sha256";
import { admission, type OpencodeCompactionConfig, type OpencodeModelLimits } from "./overflow";
import type { OcMessage, OcPart } from "./rows";
import { EXECUTOR_LIMITS } from "./verdicts";

/** The planner's limits (the fork's constants; exposed as simulator settings). */
export interface ChunkedLimits {
  /** Summary output allowance per call (fork: 4096). */
  summaryOutputTokens: number;
  /** Worst-case prior rolling summary reserve in chars (fork: 4096 × 4 = 16384). */
  reserveChars: number;
  /** At most this many chunks (fork: 4). */
  maxChunks: number;
  /** Per-message envelope subtracted from the piece limit (fork: 1024). */
  envelopeChars: number;
  /** Historical tool output cap inside chunks (fork: 2000, no "[truncated]" marker). */
  toolOutputChars: number;
}

export const FORK_CHUNKED_LIMITS: ChunkedLimits = { ...EXECUTOR_LIMITS };

/** A text piece of an oversized text part: its role and position among the pieces. */
interface SplitMeta {
  role: string;
  index: number;
  total: number;
}

/** A projected part: a stored part, possibly with its tool output cut or its text a split piece. */
type PlannerPart = OcPart & { split?: SplitMeta };

/** A projected message, with the index of the stored row it came from. */
export interface PlannerMessage {
  id: string;
  role: string;
  parts: PlannerPart[];
  row: number;
}

type ChatContent = Record<string, unknown>;
export interface PlannerChat {
  role: string;
  content: ChatContent[];
}

interface PlannerRequest {
  phase: "compaction";
  summaryOutputTokens: number;
  summaryReserveChars: number;
  chunkIndex: number;
  messages: PlannerChat[];
}

export interface PlannerChunk {
  index: number;
  messages: PlannerMessage[];
}

interface PlannerProposal {
  chunk: PlannerChunk;
  request: PlannerRequest;
  requestEstimate: number;
  requestHash: string;
  admitted: boolean;
}

type ImpossibleReason = "fixed-overhead" | "latest-turn-too-large" | "chunk-limit";

interface PlannerImpossible {
  reason: ImpossibleReason;
  /** The estimate that failed, when the fork reports one. */
  estimate: number | null;
  budget: number;
  chunkCount: number;
}

export interface PlannerPlan {
  chunks: PlannerChunk[];
  /** Indices of the stored rows of the latest user turn (kept outside every chunk). */
  latestRows: number[];
  /** Rows before the first user message: in no turn, so in no chunk. */
  outsideRows: number[];
  proposals: PlannerProposal[];
  budget: number;
  /** Estimate of the request without history (skeleton, prompt, reserve). */
  overheadEstimate: number;
  /** Estimate of the latest-turn gate request (the latest turn is counted twice, as the fork does). */
  latestEstimate: number;
  /** The largest text piece, in chars, a chunk can carry alone. */
  pieceLimitChars: number;
}

export type PlannerOutcome = { ok: true; plan: PlannerPlan } | { ok: false; impossible: PlannerImpossible; budget: number };

export interface PlannerInput {
  rows: readonly OcMessage[];
  /** Rows handed to the planner, in order (indices into `rows`). */
  indexes: readonly number[];
  model: OpencodeModelLimits;
  cfg: OpencodeCompactionConfig;
  limits: ChunkedLimits;
  /** The prompt without history (the fork's `buildPrompt({ context: [] })`). */
  promptText: string;
  /** Seed of the request hashes (the fork's `requestHash` input; "" when absent). */
  hashSeed?: string;
}

/** `isMedia` (upstream util/media.ts): images, audio, video and PDF. */
function isMediaMime(mime: string): boolean {
  return mime.startsWith("image/") || mime.startsWith("audio/") || mime.startsWith("video/") || mime === "application/pdf";
}

/** The marker standing in for the worst-case prior rolling summary inside a request projection. */
export function reserveMarker(limits: ChunkedLimits): string {
  return `[prior-rolling-summary:reserve up to ${limits.reserveChars} chars]`;
}

/** The fork's budget estimator: ceil(chars / 4) of the canonical JSON. */
export function canonicalEstimate(value: unknown): number {
  return Math.ceil((typeof value === "string" ? value.length : canonicalJson(value).length) / 4);
}

/**
 * Chunk projection of one stored message: compaction markers dropped, media and data-URL files
 * become `[Attached <mime>: <filename>]` text, completed tool output cut to the cap.
 */
export function projectMessage(row: OcMessage, index: number, limits: ChunkedLimits): PlannerMessage {
  const parts: PlannerPart[] = [];
  for (const part of row.parts) {
    if (part.type === "compaction") continue;
    if (part.type === "file" && (isMediaMime(part.mime ?? "") || (part.url ?? "").startsWith("data:"))) {
      parts.push({ ...(part.id !== undefined ? { id: part.id } : {}), type: "text", text: `[Attached ${part.mime}: ${part.filename ?? "file"}]` });
      continue;
    }
    const output = part.state?.output;
    if (part.type === "tool" && part.state?.status === "completed" && typeof output === "string" && output.length > limits.toolOutputChars) {
      parts.push({ ...part, state: { ...part.state, output: output.slice(0, limits.toolOutputChars) } });
      continue;
    }
    parts.push(part);
  }
  return { id: row.info.id, role: row.info.role, parts, row: index };
}

/** The message as stored, unprojected (the planner measures the latest turn this way). */
function rawMessage(row: OcMessage, index: number): PlannerMessage {
  return { id: row.info.id, role: row.info.role, parts: row.parts, row: index };
}

/** The data-only chat projection the fork measures: only fields of the model-visible payload. */
export function chatOfMessage(message: PlannerMessage): PlannerChat {
  const content = message.parts.map((part): ChatContent => {
    switch (part.type) {
      case "text":
        return part.split ? { type: "text", text: part.text, split: { index: part.split.index, role: part.split.role, total: part.split.total } } : { type: "text", text: part.text };
      case "reasoning":
        return { type: "reasoning", text: part.text };
      case "file":
        return { type: "file", mime: part.mime, filename: part.filename ?? "file", url: (part.url ?? "").startsWith("data:") ? undefined : part.url };
      case "tool": {
        const status = part.state?.status;
        return { type: "tool", tool: part.tool, callID: part.callID, status, output: status === "completed" ? part.state?.output : undefined, error: status === "error" ? part.state?.error : undefined };
      }
      default:
        return { type: part.type };
    }
  });
  return { role: message.role, content };
}

function plannerRequest(chunkChat: readonly PlannerChat[], latestChat: readonly PlannerChat[], promptText: string, chunkIndex: number, limits: ChunkedLimits): PlannerRequest {
  return {
    phase: "compaction",
    summaryOutputTokens: limits.summaryOutputTokens,
    summaryReserveChars: limits.reserveChars,
    chunkIndex,
    messages: [...chunkChat, ...latestChat, { role: "user", content: [{ type: "text", text: `${promptText}\n${reserveMarker(limits)}` }] }],
  };
}

/** The compaction-phase budget B (CP-OC-5 with the summary output allowance). */
export function chunkedBudget(cfg: OpencodeCompactionConfig, model: OpencodeModelLimits, limits: ChunkedLimits): number {
  return admission(cfg, model, 0, limits.summaryOutputTokens).budget;
}

/** Whole user turns: every user message (compaction requests included) opens one. */
function userTurns(messages: readonly OcMessage[]): { start: number; end: number }[] {
  const starts: number[] = [];
  messages.forEach((message, i) => {
    if (message.info.role === "user") starts.push(i);
  });
  return starts.map((start, k) => ({ start, end: starts[k + 1] ?? messages.length }));
}

class Impossible extends Error {
  constructor(readonly detail: PlannerImpossible) {
    super(detail.reason);
  }
}

/**
 * A turn too large for a chunk alone: each message without an oversized text part stays one unit
 * (unchecked, as in the fork); a message with one becomes one slot per part, an oversized text
 * part one slot per piece of at most `pieceLimit` chars; every slot must fit a chunk alone.
 */
function splitTurn(turn: readonly PlannerMessage[], pieceLimit: number, verify: (unit: readonly PlannerMessage[]) => void): PlannerMessage[][] {
  const units: PlannerMessage[][] = [];
  for (const message of turn) {
    const oversized = (part: PlannerPart) => part.type === "text" && (part.text ?? "").length > pieceLimit;
    if (!message.parts.some(oversized)) {
      units.push([message]);
      continue;
    }
    let slot = 0;
    const push = (part: PlannerPart) => {
      const id = slot === 0 ? message.id : `${message.id}#split${slot}`;
      slot += 1;
      const unit = [{ ...message, id, parts: [part] }];
      verify(unit);
      units.push(unit);
    };
    for (const part of message.parts) {
      if (!oversized(part)) {
        push(part);
        continue;
      }
      const text = part.text ?? "";
      const total = Math.max(1, Math.ceil(text.length / pieceLimit));
      for (let piece = 0; piece < total; piece++) {
        const id = piece === 0 ? part.id : part.id !== undefined ? `${part.id}#split${piece}` : undefined;
        push({ ...part, ...(id !== undefined ? { id } : {}), text: text.slice(piece * pieceLimit, (piece + 1) * pieceLimit), split: { role: message.role, index: piece, total } });
      }
    }
  }
  return units;
}

/** CP-OC-31: the fork's plan, or the reason it is impossible (`CompactionImpossibleError`). */
export function planChunks(input: PlannerInput): PlannerOutcome {
  const { limits, promptText } = input;
  const budget = chunkedBudget(input.cfg, input.model, limits);
  const messages = input.indexes.map((i) => input.rows[i] as OcMessage);
  const reserveTokens = Math.ceil(limits.reserveChars / 4);
  const estimateRequest = (request: PlannerRequest) => canonicalEstimate(request) + reserveTokens;
  const groups = userTurns(messages);
  const last = groups[groups.length - 1];
  const latest = last ? messages.slice(last.start, last.end).map((row, k) => rawMessage(row, input.indexes[last.start + k] as number)) : [];
  const oldGroups = groups.length > 0 ? groups.slice(0, -1) : [{ start: 0, end: messages.length }];
  const outsideRows = groups.length > 0 ? input.indexes.slice(0, (groups[0] as { start: number }).start) : [];
  const latestChat = latest.map(chatOfMessage);
  const requestFor = (chunk: readonly PlannerMessage[], index: number) => plannerRequest(chunk.map(chatOfMessage), latestChat, promptText, index, limits);
  try {
    // Gates before any chunk planning: the overhead without history, then the latest turn (the
    // fork passes the latest turn as the chunk too, so it is counted twice).
    const overheadEstimate = estimateRequest(plannerRequest([], [], promptText, -1, limits));
    if (overheadEstimate > budget) throw new Impossible({ reason: "fixed-overhead", estimate: overheadEstimate, budget, chunkCount: 0 });
    const latestEstimate = estimateRequest(plannerRequest(latestChat, latestChat, promptText, -1, limits));
    if (latestEstimate > budget) throw new Impossible({ reason: "latest-turn-too-large", estimate: latestEstimate, budget, chunkCount: 0 });
    const pieceLimitChars = Number.isFinite(budget) ? Math.floor(4 * (budget - latestEstimate)) - limits.envelopeChars : Number.MAX_SAFE_INTEGER;
    if (pieceLimitChars < 1) throw new Impossible({ reason: "chunk-limit", estimate: null, budget, chunkCount: limits.maxChunks });
    const verify = (unit: readonly PlannerMessage[]) => {
      if (estimateRequest(requestFor(unit, 0)) > budget) throw new Impossible({ reason: "chunk-limit", estimate: null, budget, chunkCount: limits.maxChunks });
    };

    const units: PlannerMessage[][] = [];
    for (const group of oldGroups) {
      const projected = messages.slice(group.start, group.end).map((row, k) => projectMessage(row, input.indexes[group.start + k] as number, limits));
      if (projected.length === 0) continue;
      if (estimateRequest(requestFor(projected, 0)) <= budget) units.push(projected);
      else units.push(...splitTurn(projected, pieceLimitChars, verify));
    }

    // Greedy packing: a unit joins the open chunk while the request still fits; only a unit that
    // opens the first or an empty chunk is checked on its own (the fork checks no other).
    const packed: PlannerMessage[][] = [];
    let current: PlannerMessage[] = [];
    for (const unit of units) {
      if (current.length === 0) {
        verify(unit);
        current = [...unit];
      } else if (estimateRequest(requestFor([...current, ...unit], packed.length)) <= budget) current.push(...unit);
      else {
        packed.push(current);
        current = [...unit];
      }
    }
    if (current.length > 0) packed.push(current);
    if (packed.length > limits.maxChunks) throw new Impossible({ reason: "chunk-limit", estimate: null, budget, chunkCount: packed.length });

    const chunks = packed.map((list, index) => ({ index, messages: list }));
    const proposals = chunks.map((chunk): PlannerProposal => {
      const request = requestFor(chunk.messages, chunk.index);
      const requestEstimate = estimateRequest(request);
      return {
        chunk,
        request,
        requestEstimate,
        requestHash: sha256Hex(`${input.hashSeed ?? ""}\n${canonicalJson(request)}`),
        admitted: admission(input.cfg, input.model, requestEstimate, limits.summaryOutputTokens).admitted,
      };
    });
    return { ok: true, plan: { chunks, latestRows: latest.map((m) => m.row), outsideRows, proposals, budget, overheadEstimate, latestEstimate, pieceLimitChars } };
  } catch (error) {
    if (error instanceof Impossible) return { ok: false, impossible: error.detail, budget };
    throw error;
  }
}
