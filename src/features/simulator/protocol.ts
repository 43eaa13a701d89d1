// Messages of the compaction simulator between the UI and the pipeline worker. The UI sends the user's settings; the worker runs the pure simulator
// (src/core/simulate) next to the session it holds and answers with display-ready, plain data:
// request bodies as JSON text, partition ranges with their messages, highlights for the editor.
import type { ApiId, PipelineOptions } from "../../core/model";
import type {
  CacheEffect,
  Finding,
  FollowingTurn,
  InstructionSlotUse,
  LimitOverrides,
  ModelWindowVariant,
  PolicyComparison,
  PolicyId,
  PolicyParameters,
  PrefixBreak,
  ReplayResult,
  ResolvedLimits,
  SettingsInference,
  SimulatedSummary,
  SpiralRunResult,
  TokenSummary,
  TriggerDecision,
  Verdict,
  VerdictResult,
} from "../../core/session/simulate/index";

import type { TextHighlight } from "../request/protocol";
import type { SimulatorSettings } from "../../app/simulation";
export type { ModelWindowChoice, SimulatedRequestRef, SimulatorSettings, SummaryChoice } from "../../app/simulation";




/** One parameter of a policy, for the controls. */
export interface PolicyParameterInfo {
  name: string;
  label: string;
  type: "number" | "boolean" | "enum" | "string";
  default: string | number | boolean | null;
  choices?: string[];
  ruleId: string;
  /** Set for [INF] parameters: the badge's rule, what we chose and the alternative. */
  inferred?: { ruleId: string; what: string; alternative: string };
  description: string;
}

export interface PolicyInfo {
  id: PolicyId;
  label: string;
  /** False when the policy cannot run on the open session (the reason, in words, is in `unsupported`). */
  supported: boolean;
  unsupported: string | null;
  parameters: PolicyParameterInfo[];
  checkedVerdicts: Verdict[];
  /** Name of the parameter the limits row's "reserve" field sets, if the policy has one. */
  reserveParameter: string | null;
  /** The policy has a spiral run (repeated failed attempts with its fix off and on). */
  spiral: boolean;
  /** The policy resolves the model window by its own rules (offers the "prompt without a model" choice). */
  modelChoice: boolean;
  /** The summariser captures attached in the app fill the policy's instruction slots. */
  usesAttachedSummariserCaptures: boolean;
}

/** One message of a partition range (a row of turn N's context). */
interface RangeMessage {
  index: number;
  role: string;
  entryId: string | null;
  tokens: number;
  preview: string;
}

export interface RangeView {
  kind: "kept" | "summarised" | "pruned" | "dropped-without-summary";
  label: string | null;
  ruleId: string | null;
  tokens: number;
  messageStart: number | null;
  messageEnd: number | null;
  entryCount: number;
  messages: RangeMessage[];
}

export interface SummariserRequestView {
  role: string;
  form: string;
  api: ApiId;
  maxTokens: number | null;
  /** The body as the Request view formats it (`formatRequestJson`). */
  jsonText: string;
  /** Replayed prefix (cache-aware policies), focus topic: ranges of `jsonText`. */
  highlights: TextHighlight[];
  /** Characters of `jsonText` byte-identical to turn N's request (formatted the same way). */
  replayedPrefixChars: number;
  instructionSlots: InstructionSlotUse[];
  cache: CacheEffect | null;
  focusPlacement: string | null;
  redaction: string;
  notes: string[];
}

/** The windows each model-resolution candidate would give, and the one in use. */
export interface ModelResolutionView {
  recorded: { window: number; source: string; model: string };
  agentDefault: number | null;
  providerDefault: number | null;
  used: { window: number; from: string };
  /** What the policy's own model-resolution variants pick (opencode CP-OC-27/28: a prompt without a model, brake off and on). */
  variants: ModelWindowVariant[];
}

export interface SimulationView {
  policyId: PolicyId;
  policyLabel: string;
  turn: number;
  parameters: PolicyParameters;
  limits: ResolvedLimits;
  modelResolution: ModelResolutionView;
  trigger: TriggerDecision;
  ranges: RangeView[];
  partitionDetails: Record<string, string | number | boolean | null>;
  summariserRequests: SummariserRequestView[];
  after: {
    summary: SimulatedSummary | null;
    jsonText: string | null;
    api: ApiId | null;
    messageCount: number;
    prefixBreak: PrefixBreak | null;
    followingTurns: Omit<FollowingTurn, "body">[];
    storedRecordJson: string | null;
  };
  verdict: VerdictResult;
  tokens: TokenSummary;
  findings: Finding[];
  inferred: string[];
}

export interface SpiralView {
  attempts: number;
  /** The run with the spiral brake off (before PR #11) and on. */
  off: SpiralRunResult;
  on: SpiralRunResult;
}

export interface ReplayView {
  replay: ReplayResult;
}

export interface CompareView {
  a: ReplayResult;
  b: ReplayResult;
  comparison: PolicyComparison;
}


export interface SimulatorPolicies {
  policies: PolicyInfo[];
  /** The policy of the agent that wrote the session (the one the panel opens on); null when its agent has none. */
  sessionPolicyId: PolicyId | null;
}

export interface SimulatorMethods {
  /** Every policy, and whether it runs on the open session (or why not); the session's own agent's policy first to show. */
  simulatorPolicies: { params: { options: PipelineOptions }; result: SimulatorPolicies };
  simulate: { params: { options: PipelineOptions; settings: SimulatorSettings }; result: SimulationView };
  spiralRun: { params: { options: PipelineOptions; settings: SimulatorSettings; attempts: number }; result: SpiralView };
  replaySession: {
    params: { options: PipelineOptions; settings: SimulatorSettings; fromTurn?: number; toTurn?: number };
    result: ReplayView;
  };
  comparePolicies: {
    params: { options: PipelineOptions; settings: SimulatorSettings; otherPolicyId: PolicyId };
    result: CompareView;
  };
  /** The settings consistent with the session's recorded compactions, for one policy. */
  /** The user's own settings (parameters, limits, reserve) are taken as known and not inferred. */
  /**
   * Worked on for about `sliceMs` per call (the UI calls again until `progress.complete`, so the
   * worker answers other calls between slices and a newer inference simply stops the older one's calls).
   */
  inferSettings: { params: { options: PipelineOptions; settings: SimulatorSettings; sliceMs?: number }; result: SettingsInference };
}
