// The common contract of the compaction simulator (compaction-policies.md §0, CP-0-1 … CP-0-6):
// what a simulation takes (a session, a turn, a policy and its parameters), what every policy
// returns (trigger arithmetic, partition, summariser requests, the request after compaction,
// verdict, tokens, findings) and the interface a policy implements. Plain data only: results
// cross the worker boundary and are printed by the CLI.
import type { ApiId, ContextMessage, PipelineOptions, ProfileId, Session } from "../model";
import type { TurnContext, TurnPipeline } from "../pipeline/types";

// ---------------------------------------------------------------------------------------------
// Identifiers

/**
 * A policy id as the CLI and the UI name it ("pi", "hermes", …). The ids are those of the policies
 * listed in simulate/policies.ts; `getPolicy` rejects any other.
 */
export type PolicyId = string;

/** CP-0-4: the verdict vocabulary shared by all policies. */
export type Verdict =
  | "not-triggered"
  | "nothing-to-compact"
  | "compacted"
  | "no-reduction"
  | "post-compaction-over-budget"
  | "mid-execution-over-budget"
  | "cycle-guard-stop"
  | "failed";

export const VERDICTS: readonly Verdict[] = [
  "not-triggered",
  "nothing-to-compact",
  "compacted",
  "no-reduction",
  "post-compaction-over-budget",
  "mid-execution-over-budget",
  "cycle-guard-stop",
  "failed",
];

// ---------------------------------------------------------------------------------------------
// Input (CP-0-1)

/** A parameter value: policies keep their parameters flat and JSON-friendly. */
export type ParameterValue = string | number | boolean | null;
export type PolicyParameters = Record<string, ParameterValue>;

/** Declares one policy parameter (shown in the UI, parsed by the CLI). */
export interface PolicyParameterSpec {
  name: string;
  label: string;
  type: "number" | "boolean" | "enum" | "string";
  /** The spec's value; `null` means "from the session / not set". */
  default: ParameterValue;
  /** Allowed values of an `enum` parameter. */
  choices?: readonly string[];
  /** Spec rule that defines the parameter (e.g. "CP-DH-1"). */
  ruleId: string;
  /** Set when the spec marks the rule [INF]: the rule id again, so the UI can label it "inferred". */
  inferred?: string;
  description: string;
  /** Shown as a switch beside the policy choice instead of in the parameter list; absent: a row of the list. */
  presentation?: ParameterSwitch;
}

/**
 * A parameter that picks one of the policy's variants (before and after a fix, the live or a
 * fork's code path), shown beside the policy choice: a checkbox for a boolean, a select for an enum.
 */
interface ParameterSwitch {
  /** The words beside the checkbox, or above the select. */
  label: string;
  /** What the select offers, in order, each in words; choices not listed are not offered. */
  choices?: readonly { value: string; label: string }[];
}

/**
 * CP-0-1 limits. Each defaults to what the session records (model metadata, the catalogue) and can
 * be overridden. [INF]
 */
export interface LimitOverrides {
  contextWindow?: number;
  /** The model's output limit (max output tokens). */
  maxOutputTokens?: number;
  /** A separate input limit (opencode `limit.input`); absent for most models. */
  inputLimit?: number;
}

/** Where a limit value came from, for the trigger display. */
export type LimitSource =
  | "override"
  | "session"
  | "catalogue"
  | "catalogue-default"
  /** The model is not in the catalogue; the price dataset records its window. */
  | "the price dataset's window for this model"
  | "header"
  | "none"
  /** Settings inference found the value from the session's recorded compactions (the user's own value wins). */
  | "inferred from this session's compactions"
  /** The model is not in the catalogue and the session's own recorded context went past the default window. */
  | "model unknown: the largest context this session reached";

export interface ResolvedLimits {
  contextWindow: number;
  contextWindowSource: LimitSource;
  maxOutputTokens: number;
  maxOutputTokensSource: LimitSource;
  /** null when the model has no separate input limit. */
  inputLimit: number | null;
  inputLimitSource: LimitSource;
}

/**
 * CP-0-3 summary text, in order of preference: the summary recorded in the session (re-simulating
 * a recorded compaction), text the user supplied, or a labelled placeholder of a chosen size that
 * follows the policy's template headings.
 */
export type SummarySource =
  | { kind: "recorded"; compactionEntryId?: string }
  | { kind: "text"; text: string }
  | {
      kind: "placeholder";
      /** Size in estimated tokens (chars/4); default CP-0-3's length. */
      tokens?: number;
      /** Size in characters (wins over `tokens`). */
      chars?: number;
    };

/**
 * A policy's fixed instruction texts are data, not code: named slots filled from
 * captured summariser requests. Keys are the policy's slot names (`InstructionSlotSpec.slot`).
 */
export interface InstructionSlotValues {
  slots: Record<string, string>;
  /** Where each slot's text came from (file name of the captured request), by slot name. */
  sources?: Record<string, string>;
}

export interface SimulationInput {
  session: Session;
  /** CP-0-5: add the provider-accurate token count to `tokens.provider` (default true). */
  providerCount?: boolean;
  /**
   * Only the trigger is wanted (settings inference asks it after every turn): a policy may return
   * as soon as its trigger is evaluated, with an empty partition, no requests and no findings.
   * The provider count is skipped too.
   */
  triggerOnly?: boolean;
  /** Pipeline options of the session view (profile, branch, api, header, model overrides). */
  options: PipelineOptions;
  /** CP-0-1: simulate after the response of this 1-based turn. */
  turn: number;
  policyId: PolicyId;
  /** Policy parameters; missing ones take the policy's defaults (incl. `roleSplit`, `spiralBrake`). */
  parameters?: PolicyParameters;
  limits?: LimitOverrides;
  /** Which of `limits` settings inference supplied (not the user): their source says so. */
  inferredLimits?: readonly (keyof LimitOverrides)[];
  summary?: SummarySource;
  /** User-supplied focus topic / custom instructions (`/compact <text>`, `/compress <focus>`). */
  focus?: string | null;
  instructions?: InstructionSlotValues;
  /** Manual compaction: skip the trigger (PI-K7 and equivalents). */
  manual?: boolean;
  /**
   * Re-simulate this recorded compaction entry: the history is taken as it stood just before it,
   * and the recorded summary is used (CP-0-3). Policies that cannot re-simulate ignore it.
   */
  recordedCompactionEntryId?: string;
  /** How many following turns to rebuild on top of the compacted context; default all. */
  followingTurns?: number;
  /** Wire shape of the summariser and after requests; default the turn's api. */
  api?: ApiId | null;
}

/** What the framework hands a policy besides the input (computed once per simulation). */
export interface SimulationContext {
  /** The pipeline's per-turn entry points, for policies that rebuild other turns or a session copy. */
  pipeline: TurnPipeline;
  /** Turn N's context as the format pipeline built it. */
  turnContext: TurnContext;
  /** Turn N's provider request body as rebuilt by the pipeline (the cache reference). */
  turnRequest: { api: ApiId; body: Record<string, unknown> };
  limits: ResolvedLimits;
  /** Number of turns on the branch. */
  turnCount: number;
  /** Parameters with the policy defaults applied. */
  parameters: PolicyParameters;
}

// ---------------------------------------------------------------------------------------------
// Output (CP-0-2, in this order)

interface TriggerOperand {
  name: string;
  value: number;
  /** Where the value comes from ("recorded usage", "override", "estimate chars/4", …). */
  source: string;
}

/** (1) The trigger decision with its arithmetic written out. */
export interface TriggerDecision {
  /** False when the trigger was skipped (manual compaction). */
  evaluated: boolean;
  manual: boolean;
  operands: TriggerOperand[];
  /** The comparison, e.g. ">" for pi's strict rule. */
  operator: ">" | ">=" | "<" | "<=";
  left: number;
  right: number;
  result: boolean;
  /** Human form, e.g. "4642 > 16000 − 11600 = 4400 → compact". */
  expression: string;
  ruleId: string;
  /** CP-0-5: the estimator the policy used for its numbers. */
  estimator: string;
}

type RangeKind = "kept" | "summarised" | "pruned" | "dropped-without-summary";

/** One range of the context, by messages of turn N's context and by session entries. */
export interface PartitionRange {
  kind: RangeKind;
  /** Indices into turn N's context messages, end exclusive (null when the range has no messages). */
  messageStart: number | null;
  messageEnd: number | null;
  /** Session entries covered (pi: path entries), in order. */
  entryIds: string[];
  /** 1-based session lines of those entries, when known. */
  lines: number[];
  /** Policy estimate of the tokens in the range (CP-0-5). */
  tokens: number;
  /** e.g. "turn prefix (split turn)", "G1: kept by the previous compaction". */
  label?: string;
  ruleId?: string;
}

/** (2) The partition of the context. */
export interface Partition {
  kept: PartitionRange[];
  summarised: PartitionRange[];
  pruned: PartitionRange[];
  droppedWithoutSummary: PartitionRange[];
  /**
   * Ids the agent's record of a compaction names as kept, in the policy's terms (Claude Code:
   * preserved entry uuids; Codex: retained history item ids). Compared with the recording by
   * `replayRecordedCompactions`; pi and opencode use `details.firstKeptEntryId` / `tailStartId`.
   */
  keptIds?: string[];
  /** Extra facts for the UI (cut entry, split turn, boundary), policy specific. */
  details: Record<string, ParameterValue>;
}

export interface InstructionSlotSpec {
  slot: string;
  label: string;
  /** Our own short description of the policy's template, used when the slot is not filled. */
  description: string;
  ruleId: string;
}

/** How a slot was filled in one request. */
export interface InstructionSlotUse {
  slot: string;
  filledFrom: "captured" | "description";
  /** File name of the captured request, when captured. */
  source?: string;
}

/** Expected prompt-cache effect of a request (CP-0-2 (6), CP-PI-8, CP-SE-10). [INF] */
export interface CacheEffect {
  /** The request it is compared with (e.g. "turn 8 main request"). */
  reference: string;
  /** Estimated tokens (chars/4 of the serialized JSON) of the byte prefix shared with the reference. */
  sharedPrefixTokens: number;
  /** Characters of that shared prefix. */
  sharedPrefixChars: number;
  totalTokens: number;
  /** "cold", "warm prefix", "forfeited (different route)". */
  note: string;
}

/**
 * What the generic finding checks need to know about a summariser request; the
 * policy that builds the request fills it.
 */
interface FindingInputs {
  /** Instruction texts as sent (captured slot texts or our descriptions, with any focus line). */
  instructionTexts: string[];
  /** Turn content: the transcript text, the previous summary, or the replayed messages' texts. */
  turnTexts: string[];
  /** User-controlled texts: focus topic / custom instructions, automatic focus, quoted user turns. */
  userControlledTexts: string[];
  /** The instruction asks for a checkpoint whose register the English check applies to. */
  checkpointInstruction: boolean;
}

/** (3) One summariser request, in provider shape, exportable. */
export interface SimulatedSummariserRequest {
  /** "history", "turn-prefix", "summary", "chunk-1", … */
  role: string;
  api: ApiId;
  /** "standalone", "replay", … */
  form: string;
  body: Record<string, unknown>;
  maxTokens: number | null;
  /** The data part (transcript text or replayed messages) as the policy builds it. */
  dataPart: unknown;
  instructionSlots: InstructionSlotUse[];
  cache: CacheEffect | null;
  /** Where user-supplied focus text sits, e.g. "user message, after the instruction". */
  focusPlacement: string | null;
  /** The redaction applied to the data (CP-PI-4 none, CP-HA-27 strict, …). */
  redaction: string;
  notes: string[];
  /** senpi's warm job (SP-K8): the request was sent alongside this turn's first main request, before the compaction point. */
  sentBeforeTurn?: number;
  /** Inputs of the finding checks; requests without it are checked for secrets only. */
  findingInputs?: FindingInputs;
}

/** Where two consecutive requests stop sharing bytes. */
export interface PrefixBreak {
  /** Index of the first differing message in the later request's message list (-1: before messages). */
  messageIndex: number;
  sharedPrefixChars: number;
  sharedPrefixTokens: number;
  reason: string;
}

export interface SimulatedSummary {
  text: string;
  source: "recorded" | "text" | "placeholder";
  /** Shown with placeholders: "placeholder, 2000 chars, not model output". */
  label: string | null;
  tokens: number;
}

/** A following turn of the session rebuilt on top of the compacted context. */
export interface FollowingTurn {
  turn: number;
  originalTokens: number;
  simulatedTokens: number;
  savedTokens: number;
  messageCount: number;
  /** Where this request stops being a byte prefix continuation of the previous simulated one. */
  prefixBreak: PrefixBreak | null;
  body?: Record<string, unknown>;
}

/** (4) The request that would follow the compaction, and the rest of the session on top of it. */
export interface AfterCompaction {
  summary: SimulatedSummary | null;
  /** The projected context after compaction (summary message(s) + kept messages). */
  messages: ContextMessage[];
  /** The next main request, in provider shape. */
  request: { api: ApiId; body: Record<string, unknown> } | null;
  /** Where the next request breaks the prefix of turn N's request. */
  prefixBreak: PrefixBreak | null;
  followingTurns: FollowingTurn[];
  /** The compaction entry/record the policy would store (pi: the `compaction` entry). */
  storedRecord: Record<string, unknown> | null;
}

/** (5) The verdict (CP-0-4). */
export interface VerdictResult {
  verdict: Verdict;
  /** Policy error message for `failed` and the error-backed verdicts. */
  message: string | null;
  /** Policy error code (CP-DH-13 `MAX_TOKENS`, …). */
  code: string | null;
  ruleId: string;
  /** Verdicts the policy's rules define; the others are "not checked by this policy". */
  checked: Verdict[];
  notChecked: Verdict[];
}

/** (6) Tokens before and after, in the policy's estimate (CP-0-5). */
export interface TokenSummary {
  estimator: string;
  before: number;
  after: number;
  saved: number;
  /** Tokens of the summariser request(s) (input side). */
  summariserInput: number;
  /** CP-0-5: the provider-accurate count beside the estimate (absent when not computed, e.g. whole-session replay). */
  provider?: ProviderTokenCount;
}

/** CP-0-5: exact o200k for OpenAI shapes, an o200k-based estimate otherwise (TK-1, TK-3). */
export interface ProviderTokenCount {
  /** "exact (o200k)", "estimate (o200k × 1)". */
  counter: string;
  exact: boolean;
  before: number;
  after: number;
  saved: number;
  summariserInput: number;
}

type FindingSeverity = "error" | "warning" | "info";

/** Finding ids: the six of the item 4 plus policy-specific ones. */
type FindingId =
  | "instructions-share-message-with-turns"
  | "user-text-in-system-slot"
  | "secret-in-request"
  | "checkpoint-not-english-register"
  | "unfinished-summary-in-scope"
  | "tool-call-split-by-cut"
  | "summary-larger-than-range"
  | "previous-summary-discarded"
  | "dropped-without-summary"
  | "cache-reuse-forfeited"
  | "instruction-slot-described"
  | "stale-summary-resent"
  | "ineffective-compaction"
  | (string & {});

export interface FindingLocation {
  /** Index in `summariserRequests`, or "after" for the request after compaction. */
  request?: number | "after";
  /** JSON path inside the request body, e.g. `messages[1].content[0].text`. */
  path?: string;
  messageIndex?: number;
  entryId?: string;
  /** Character range inside the string at `path`. */
  start?: number;
  end?: number;
}

export interface Finding {
  id: FindingId;
  severity: FindingSeverity;
  message: string;
  location: FindingLocation | null;
  ruleId?: string;
}

export interface SimulationResult {
  policyId: PolicyId;
  turn: number;
  parameters: PolicyParameters;
  limits: ResolvedLimits;
  trigger: TriggerDecision;
  partition: Partition;
  summariserRequests: SimulatedSummariserRequest[];
  after: AfterCompaction;
  verdict: VerdictResult;
  tokens: TokenSummary;
  findings: Finding[];
  /** [INF] rule ids this result depends on (the UI labels them "inferred"). */
  inferred: string[];
}

// ---------------------------------------------------------------------------------------------
// Policy interface

export interface CompactionPolicy {
  id: PolicyId;
  label: string;
  /** Rule-id prefix in compaction-policies.md, e.g. "CP-PI". */
  rulePrefix: string;
  parameters: readonly PolicyParameterSpec[];
  /** CP-0-4: the verdicts this policy's rules define. */
  checkedVerdicts: readonly Verdict[];
  instructionSlots: readonly InstructionSlotSpec[];
  /**
   * Runs the policy at `input.turn`. Must not call a model (CP-0-3). The framework fills
   * `after.followingTurns` afterwards when the policy leaves it empty.
   */
  simulate(input: SimulationInput, context: SimulationContext): SimulationResult;
  /**
   * Why this policy cannot run on `session`, in words a user understands (the simulator shows it
   * instead of running), or null when it can. Absent: the policy runs on any agent's session.
   */
  notApplicable?(session: Session): string | null;
  /** Reads a captured summariser request of this policy into slot values; null when it is not one. */
  extractInstructions?(capturedBody: unknown, source: string): InstructionSlotValues | null;
  /**
   * Reads a captured summariser request fully: slot values, the user focus it carried, and its
   * data part in the same form as `SimulatedSummariserRequest.dataPart` (for recorded replay).
   */
  readCaptured?(capturedBody: unknown, source: string): CapturedSummariserRequest | null;
  /**
   * Whether the summariser captures attached in the app (pi's instruction texts: system prompt,
   * initial, update and turn-prefix prompts) fill this policy's instruction slots.
   */
  usesAttachedSummariserCaptures?: boolean;
  /**
   * Parameters that pin the rebuild of a recorded compaction to what the record says (senpi: the
   * recorded cut), since the settings in force are not recorded.
   */
  recordedRebuildParameters?: PolicyParameters;
  /** The parameter the simulator's "reserve" setting sets (pi/senpi PI-K1, opencode CP-OC-2), if any. */
  reserveParameter?: string;
  /**
   * The pipeline profile this policy's agent ran with, applied to sessions whose agent offers it
   * (the senpi policy on a pi file rebuilds requests with the senpi profile).
   */
  pipelineProfile?: ProfileId;
  /**
   * Parameters for the simulator's model choice, for a policy whose own rules pick the model
   * window (opencode CP-OC-27 … CP-OC-29).
   */
  modelChoiceParameters?(choice: ModelChoice): PolicyParameters;
  /**
   * For a policy that resolves the model window by its own rules: the window it used and where
   * from, and what its variants would pick (opencode: a prompt without a model, brake off and on).
   */
  modelResolution?(result: SimulationResult, candidates: ModelWindowCandidates): { used: { window: number; from: string } | null; variants: ModelWindowVariant[] };
  /**
   * Which of this policy's settings a session's recorded compactions bound, for settings inference
   * (src/core/session/simulate/infer): the keep-recent budget the recorded cut pins, and how the trigger's
   * threshold maps to a setting.
   */
  inference?: PolicyInference;
  /**
   * The session with this result's simulated compaction in it, for a policy whose compaction is a
   * session entry (pi, senpi), so a whole-session replay rebuilds the later turns on top of it and
   * simulates the next compaction there. `id` names the inserted record (several can coexist).
   */
  sessionAfter?(input: SimulationInput, result: SimulationResult, id: string): Session | null;
  /** The policy's repeated-compaction run (opencode's spiral, CP-OC-8/10/32), with its fix off and on. */
  spiral?(input: SimulationInput, context: SimulationContext, attempts: number): { off: SpiralRunResult; on: SpiralRunResult };
  /** How the simulator titles the spiral run and its two columns; required with `spiral`. */
  spiralLabels?: SpiralLabels;
}

/** The words of a policy's spiral run in the simulator. */
export interface SpiralLabels {
  title: string;
  /** The boolean parameter that turns the fix on (its switch highlights the matching column). */
  fixParameter: string;
  /** The columns with the fix off and on. */
  off: string;
  on: string;
}

/** The simulator's model-window settings a policy may take as its own inputs. */
interface ModelChoice {
  agentDefaultContextWindow: number | null;
  providerDefaultContextWindow: number | null;
  /** False when the user picked "the prompt carries no model" (opencode precedence). */
  promptCarriesModel: boolean;
}

interface ModelWindowCandidates {
  sessionRow: number;
  agentDefault: number | null;
  providerDefault: number;
}

export interface ModelWindowVariant {
  /** What the variant is, e.g. "prompt without model, brake off". */
  label: string;
  window: number;
  source: string;
}

export interface CapturedSummariserRequest {
  values: InstructionSlotValues;
  focus: string | null;
  dataPart: unknown;
}

// ---------------------------------------------------------------------------------------------
// Repeated failed compaction attempts (the spiral run of a policy that has one)

export interface SpiralAttempt {
  attempt: number;
  /** Estimated tokens of this attempt's summariser request. */
  summariserRequestTokens: number;
  conversationChars: number;
  /** Estimated tokens of the main request after the failed attempt (chars/4 of its messages). */
  nextMainRequestTokens: number;
  /** Compared with the previous attempt's summariser request. */
  grew: boolean;
  /** Rows kept out of scope by the brake at this attempt. */
  excludedRows: number;
  /** Failed summaries still in the scope at this attempt. */
  failedSummariesInScope: number;
}

export interface SpiralRunResult {
  attempts: SpiralAttempt[];
  verdict: Verdict;
  message: string;
  ruleId: string;
}

// ---------------------------------------------------------------------------------------------
// Settings inference hooks (src/core/session/simulate/infer)

/** A setting the simulator can take: a policy parameter or a CP-0-1 limit override. */
export type SettingTarget = "parameter" | "limit";

/** The keep-recent budget that decides where the cut falls: more budget keeps more (or as many) messages. */
export interface CutInference {
  parameter: string;
  ruleId: string;
  /** What else the cut depends on, said to the user (e.g. "pi's valid cut points, PI-K15"). */
  note?: string;
  /**
   * How "keeps more" is measured: "first" (default) by where the kept list starts; "count" by its
   * length, for a policy that also keeps a fixed head (hermes).
   */
  position?: "first" | "count";
}

/** The setting the trigger's threshold stands for at one simulated turn. */
export interface TriggerSetting {
  /** Parameter name, or a LimitOverrides key ("contextWindow"). */
  setting: string;
  target: SettingTarget;
  label: string;
  ruleId: string;
  /** The setting value that makes the threshold `threshold` at this turn (may be fractional). */
  fromThreshold(threshold: number): number;
  /** True when a higher setting lowers the threshold (pi: reserveTokens). */
  decreasing: boolean;
  /**
   * For a threshold that is not a simple formula of the setting (hermes' floors and clamps): the
   * exact edge itself — side "max": the highest setting whose threshold is at most `threshold`;
   * side "min": the lowest whose threshold is at least `threshold` — or null when no setting the
   * agent accepts gives it. Without it, `fromThreshold` is rounded.
   */
  bound?(threshold: number, side: "min" | "max"): number | null;
  /** What the mapping takes as known, e.g. "context window 16000 (session)". */
  assumes: string | null;
}

export interface PolicyInference {
  cut?: CutInference;
  /** The setting behind this result's trigger, or null when the trigger names none. */
  trigger?(result: SimulationResult): TriggerSetting | null;
}
