// The fork's rolling-summary execution of a chunk plan (Shodocan/opencode `CompactionExecutor.run`,
// compaction-policies.md CP-OC-31): one summariser call per chunk, each request = the chunk + the
// latest turn + the prompt with the prior rolling summary materialised; every request is admitted
// again before its call, and a rolling summary past the summary allowance stops execution before
// the next call. The verdict compares the state before (all chunks + latest turn, no prompt) with
// the state after (the summary as one assistant message + latest turn). The fork's executor is not
// wired into its live path; the summariser is the caller's, here a function returning text.
import { admission, type OpencodeCompactionConfig, type OpencodeModelLimits } from "./overflow";
import {
  canonicalEstimate,
  chatOfMessage,
  chunkedBudget,
  projectMessage,
  reserveMarker,
  type ChunkedLimits,
  type PlannerChat,
  type PlannerChunk,
  type PlannerMessage,
  type PlannerPlan,
} from "./chunked-planner";
import type { OcMessage } from "./rows";
import { executorVerdict } from "./verdicts";

type ExecutorStatus = "completed" | "mid-execution-over-budget" | "no-reduction" | "post-compaction-over-budget";

/** The request projection the executor admits before a call (what the simulator shows). */
interface ExecutorProjection {
  phase: "compaction";
  summaryOutputTokens: number;
  summaryReserveChars: number;
  chunkIndex: number;
  messages: PlannerChat[];
}

interface ExecutorCall {
  chunk: PlannerChunk;
  /** The prior rolling summary materialised in this request, if any. */
  previousSummary: string | null;
  projection: ExecutorProjection;
  estimate: number;
  budget: number;
  admitted: boolean;
  /** The call's output (the rolling summary after it); null when the call was not made. */
  output: string | null;
}

export interface ExecutorResult {
  status: ExecutorStatus;
  /** Why execution stopped early, for `mid-execution-over-budget`. */
  stop: { kind: "rolling-summary-over-allowance"; tokens: number; beforeChunk: number } | { kind: "not-admitted"; chunk: number } | null;
  summary: string | null;
  calls: number;
  /** Admission of every request reached (the fork's `admissions`), with the request. */
  requests: ExecutorCall[];
  before: { estimate: number; budget: number };
  after: { estimate: number; budget: number } | null;
}

export interface ExecutorInput {
  plan: PlannerPlan;
  rows: readonly OcMessage[];
  model: OpencodeModelLimits;
  cfg: OpencodeCompactionConfig;
  limits: ChunkedLimits;
  /** The newest completed summary before this compaction, if any. */
  previousSummary: string | null;
  /** `buildPrompt({ previousSummary, context: [] })` for a prior summary (or none). */
  promptFor(previousSummary: string | null): string;
  /** The summariser: the text a call returns. */
  summarize(call: { chunk: PlannerChunk; previousSummary: string | null; callIndex: number }): string;
}

/** `Token.estimate` (opencode util/token.ts): round(chars / 4). */
function tokenEstimate(text: string): number {
  return Math.max(0, Math.round(text.length / 4));
}

export function runExecutor(input: ExecutorInput): ExecutorResult {
  const { plan, limits } = input;
  const budget = chunkedBudget(input.cfg, input.model, limits);
  const reproject = (message: PlannerMessage) => chatOfMessage(projectMessage({ info: { id: message.id, role: message.role }, parts: message.parts }, message.row, limits));
  // The executor projects the latest turn (the planner measured it unprojected).
  const latestChat = plan.latestRows.map((i) => chatOfMessage(projectMessage(input.rows[i] as OcMessage, i, limits)));
  const before = { estimate: canonicalEstimate({ messages: [...plan.chunks.flatMap((c) => c.messages).map(reproject), ...latestChat] }), budget };
  // An empty prior summary counts as none (`buildPrompt` tests it for truthiness).
  let rolling: string | null = input.previousSummary;
  let calls = 0;
  const requests: ExecutorCall[] = [];
  for (const chunk of plan.chunks) {
    if (calls > 0 && rolling !== null && tokenEstimate(rolling) > limits.summaryOutputTokens) {
      return { status: "mid-execution-over-budget", stop: { kind: "rolling-summary-over-allowance", tokens: tokenEstimate(rolling), beforeChunk: chunk.index }, summary: null, calls, requests, before, after: null };
    }
    const prior = rolling !== null && rolling !== "" ? rolling : null;
    const projection: ExecutorProjection = {
      phase: "compaction",
      summaryOutputTokens: limits.summaryOutputTokens,
      summaryReserveChars: limits.reserveChars,
      chunkIndex: chunk.index,
      messages: [...chunk.messages.map(reproject), ...latestChat, { role: "user", content: [{ type: "text", text: `${input.promptFor(prior)}\n${reserveMarker(limits)}` }] }],
    };
    const estimate = canonicalEstimate(projection);
    const admitted = admission(input.cfg, input.model, estimate, limits.summaryOutputTokens).admitted;
    const call: ExecutorCall = { chunk, previousSummary: prior, projection, estimate, budget, admitted, output: null };
    requests.push(call);
    if (!admitted) return { status: "mid-execution-over-budget", stop: { kind: "not-admitted", chunk: chunk.index }, summary: null, calls, requests, before, after: null };
    calls += 1;
    call.output = input.summarize({ chunk, previousSummary: rolling, callIndex: calls - 1 });
    rolling = call.output;
  }
  const summary = rolling ?? "";
  const after = { estimate: canonicalEstimate({ messages: [{ role: "assistant", content: [{ type: "text", text: summary }] }, ...latestChat] }), budget };
  const verdict = executorVerdict(before.estimate, after.estimate, budget);
  const status: ExecutorStatus = verdict === "compacted" ? "completed" : verdict;
  return { status, stop: null, summary, calls, requests, before, after };
}
