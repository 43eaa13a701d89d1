// The compaction simulator next to the session the worker holds (
// app side). Maps the Simulate panel's settings to a SimulationInput, runs the pure simulator and
// turns its result into display-ready data (JSON text, partition ranges with their messages,
// editor highlights for the replayed prefix, the focus topic and described instruction slots).
// Results are cached per settings (small LRU per method); no DOM and no worker globals here, so
// the export path (shareExport.ts) can use the same functions.
import { formatRequestJson } from "../../core/export/request-json";
import type { AgentMessage, PipelineOptions, Session } from "../../core/model";
import { resolveModel } from "../../core/models/catalogue";
import { buildTurnContext, buildTurnRequest, messageCharsEstimator, type TurnContext } from "../../core/session/pipeline";
import {
  buildSimulationContext,
  comparePolicies,
  DESCRIBED_SLOT_MARKER,
  getPolicy,
  startInference,
  POLICIES,
  replaySession,
  sessionPolicy,
  simulateCompaction,
  type CompactionPolicy,
  type PartitionRange,
  type PolicyId,
  type PolicyParameterSpec,
  type InferenceRun,
  type SettingsInference,
  type SimulationInput,
  type SimulationResult,
  type SummarySource,
} from "../../core/session/simulate/index";
import { findAgent } from "../../core/session/agents";
import type { MessageRow, TextHighlight } from "../request/protocol";
import { messageRows } from "../request/worker";
import { stringifyWithTexts } from "../../core/text/text";
import type {
  CompareView,
  ModelResolutionView,
  PolicyInfo,
  PolicyParameterInfo,
  RangeView,
  ReplayView,
  SimulationView,
  SimulatorPolicies,
  SpiralView,
  SummariserRequestView,
} from "./protocol";
import { effectiveParameters, runSimulation, simulationInput, type SimulatorSettings } from "../../app/simulation";

// ---------------------------------------------------------------------------------------------
// Policies

function alternativeOf(spec: PolicyParameterSpec): string {
  if (spec.type === "enum" && spec.choices) {
    const others = spec.choices.filter((choice) => choice !== spec.default);
    return others.length > 0 ? `${others.join(" / ")} (see the description)` : "";
  }
  if (spec.type === "boolean") return `${String(!spec.default)}`;
  return "the spec's reading, given in the description";
}

function parameterInfo(spec: PolicyParameterSpec): PolicyParameterInfo {
  const info: PolicyParameterInfo = {
    name: spec.name,
    label: spec.label,
    type: spec.type,
    default: spec.default,
    ruleId: spec.ruleId,
    description: spec.description,
  };
  if (spec.choices) info.choices = [...spec.choices];
  if (spec.presentation) {
    info.presentation = { label: spec.presentation.label };
    if (spec.presentation.choices) info.presentation.choices = spec.presentation.choices.map((choice) => ({ ...choice }));
  }
  if (spec.inferred) info.inferred = { ruleId: spec.inferred, what: `${spec.label}: default ${JSON.stringify(spec.default)}. ${spec.description}`, alternative: alternativeOf(spec) };
  return info;
}

/** Every policy with its parameters and what the panel offers for it; with a session, whether it runs on it (and why not). */
export function policyInfos(session: Session | null = null): PolicyInfo[] {
  return POLICIES.map((policy) => {
    const unsupported = session ? (policy.notApplicable?.(session) ?? null) : null;
    return policyInfo(policy, unsupported);
  });
}

/** The policies for the open session, and the one its own agent compacts with (the panel opens on it). */
export function simulatorPolicies(session: Session, options: PipelineOptions): SimulatorPolicies {
  return { policies: policyInfos(session), sessionPolicyId: sessionPolicy(session, options.profile)?.id ?? null };
}

function policyInfo(policy: CompactionPolicy, unsupported: string | null): PolicyInfo {
  return {
    id: policy.id,
    label: policy.label,
    supported: unsupported === null,
    unsupported,
    parameters: policy.parameters.map(parameterInfo),
    checkedVerdicts: [...policy.checkedVerdicts],
    reserveParameter: policy.reserveParameter ?? null,
    spiral: policy.spiral && policy.spiralLabels ? { ...policy.spiralLabels } : null,
    modelChoice: policy.modelChoiceParameters !== undefined,
    usesAttachedSummariserCaptures: policy.usesAttachedSummariserCaptures === true,
  };
}

// ---------------------------------------------------------------------------------------------
// Settings → SimulationInput

/** The options with the policy's own pipeline profile, when the session's agent offers it (senpi on a pi file). */
function withPolicyProfile(session: Session, options: PipelineOptions, policy: CompactionPolicy): PipelineOptions {
  const profile = policy.pipelineProfile;
  if (!profile || !findAgent(session.formatId)?.profiles?.some((p) => p.id === profile)) return options;
  return { ...options, profile };
}


// ---------------------------------------------------------------------------------------------
// Result → view

/** Where the messages of a request body are (Chat/Anthropic `messages`, Responses `input`, Google `contents`). */
function messageListKey(body: Record<string, unknown>): string | null {
  for (const key of ["messages", "input", "contents"]) if (Array.isArray(body[key])) return key;
  return null;
}

/** Pretty text of a value nested `depth` levels deep in a `formatRequestJson` document. */
function nestedPretty(value: unknown, depth: number): string {
  return stringifyWithTexts(value, 2).replace(/\n/g, `\n${" ".repeat(depth * 2)}`);
}

/**
 * The leading messages (and system/tools) of a summariser request that are byte-identical to
 * turn N's request: the replayed prefix a cache-aware policy sends (CP-SE-10, CP-DH-6).
 */
function replayedPrefix(jsonText: string, body: Record<string, unknown>, turnBody: Record<string, unknown>, turn: number): { chars: number; highlights: TextHighlight[] } {
  const highlights: TextHighlight[] = [];
  let chars = 0;
  for (const key of ["tools", "system", "instructions", "systemInstruction"]) {
    if (body[key] === undefined || stringifyWithTexts(body[key]) !== stringifyWithTexts(turnBody[key])) continue;
    const text = `"${key}": ${nestedPretty(body[key], 1)}`;
    const start = jsonText.indexOf(text);
    if (start < 0) continue;
    highlights.push({ kind: "note", start, end: start + text.length, label: `replayed: "${key}" is byte-identical to turn ${turn}'s request` });
    chars += text.length;
  }
  const key = messageListKey(body);
  const mine = key ? (body[key] as unknown[]) : [];
  const theirs = key && Array.isArray(turnBody[key]) ? (turnBody[key] as unknown[]) : [];
  let shared = 0;
  while (shared < mine.length && shared < theirs.length && stringifyWithTexts(mine[shared]) === stringifyWithTexts(theirs[shared])) shared++;
  if (shared > 0) {
    let from = jsonText.indexOf(`"${key}": [`);
    let first = -1;
    let end = -1;
    for (let i = 0; i < shared && from >= 0; i++) {
      const text = nestedPretty(mine[i], 2);
      const at = jsonText.indexOf(text, from);
      if (at < 0) break;
      if (first < 0) first = at;
      end = at + text.length;
      from = end;
    }
    if (first >= 0) {
      highlights.push({ kind: "note", start: first, end, label: `replayed prefix: the first ${shared} message(s) are byte-identical to turn ${turn}'s request (cache reuse)` });
      chars += end - first;
    }
  }
  return { chars, highlights };
}

function occurrences(haystack: string, needle: string): number[] {
  const out: number[] = [];
  if (!needle) return out;
  for (let at = haystack.indexOf(needle); at >= 0 && out.length < 50; at = haystack.indexOf(needle, at + needle.length)) out.push(at);
  return out;
}

function summariserView(result: SimulationResult, index: number, turnBody: Record<string, unknown>, focus: string | null): SummariserRequestView {
  const request = result.summariserRequests[index]!;
  const jsonText = formatRequestJson(request.body);
  const prefix = replayedPrefix(jsonText, request.body, turnBody, result.turn);
  const highlights = [...prefix.highlights];
  if (focus?.trim()) {
    const escaped = JSON.stringify(focus).slice(1, -1);
    for (const start of occurrences(jsonText, escaped)) {
      highlights.push({ kind: "synthesized", start, end: start + escaped.length, label: `focus topic (user-controlled text): ${request.focusPlacement ?? "placement not stated by the policy"}` });
    }
  }
  for (const start of occurrences(jsonText, DESCRIBED_SLOT_MARKER)) {
    const close = jsonText.indexOf("]", start);
    highlights.push({ kind: "not-recorded", start, end: close > start ? close + 1 : start + DESCRIBED_SLOT_MARKER.length, label: "instruction slot not captured: Contextscope's description stands in for the agent's text" });
  }
  highlights.sort((a, b) => a.start - b.start);
  return {
    role: request.role,
    form: request.form,
    api: request.api,
    maxTokens: request.maxTokens,
    jsonText,
    highlights,
    replayedPrefixChars: prefix.chars,
    instructionSlots: request.instructionSlots,
    cache: request.cache,
    focusPlacement: request.focusPlacement,
    redaction: request.redaction,
    notes: request.notes,
  };
}

function rangeView(range: PartitionRange, rows: MessageRow[]): RangeView {
  const messages =
    range.messageStart === null || range.messageEnd === null
      ? []
      : rows.slice(range.messageStart, range.messageEnd).map((row) => ({ index: row.index, role: row.role, entryId: row.entryId, tokens: row.tokens, preview: row.preview }));
  return {
    kind: range.kind,
    label: range.label ?? null,
    ruleId: range.ruleId ?? null,
    tokens: range.tokens,
    messageStart: range.messageStart,
    messageEnd: range.messageEnd,
    entryCount: range.entryIds.length,
    messages,
  };
}

function modelResolution(result: SimulationResult, turnContext: TurnContext, options: PipelineOptions, settings: SimulatorSettings): ModelResolutionView {
  const recordedModel = resolveModel(turnContext.model, turnContext.api, options.modelOverrides);
  const recorded = {
    window: recordedModel.contextWindow,
    source: recordedModel.source,
    model: turnContext.model ? `${turnContext.model.provider}/${turnContext.model.modelId}` : "unknown",
  };
  const view: ModelResolutionView = {
    recorded,
    agentDefault: settings.agentDefaultContextWindow,
    providerDefault: settings.providerDefaultContextWindow,
    used: { window: result.limits.contextWindow, from: windowFrom(result.limits.contextWindowSource, settings) },
    variants: [],
  };
  const own = getPolicy(result.policyId).modelResolution?.(result, {
    sessionRow: result.limits.contextWindow,
    agentDefault: settings.agentDefaultContextWindow,
    providerDefault: settings.providerDefaultContextWindow ?? result.limits.contextWindow,
  });
  if (own) {
    if (own.used) view.used = own.used;
    view.variants = own.variants;
  }
  return view;
}

/** Where the simulation's window came from: the user's choice, settings inference or the turn's model. */
function windowFrom(source: SimulationResult["limits"]["contextWindowSource"], settings: SimulatorSettings): string {
  if (source === "override") return overrideFrom(settings);
  if (source === "inferred from this session's compactions") return source;
  return `recorded model (${source})`;
}

function overrideFrom(settings: SimulatorSettings): string {
  if (settings.limits.contextWindow !== undefined) return "context window entered";
  if (settings.modelWindow === "agent-default") return "agent default model";
  if (settings.modelWindow === "provider-default") return "provider default model";
  return "override";
}

function simulationView(
  result: SimulationResult,
  turnContext: TurnContext,
  turnBody: Record<string, unknown>,
  options: PipelineOptions,
  settings: SimulatorSettings,
  charsOf: (message: AgentMessage) => number,
): SimulationView {
  const rows = messageRows(turnContext.messages, charsOf);
  const partition = result.partition;
  const ranges = [...partition.kept, ...partition.summarised, ...partition.pruned, ...partition.droppedWithoutSummary].map((range) => rangeView(range, rows));
  const after = result.after;
  return {
    policyId: result.policyId,
    policyLabel: getPolicy(result.policyId).label,
    turn: result.turn,
    parameters: result.parameters,
    limits: result.limits,
    modelResolution: modelResolution(result, turnContext, options, settings),
    trigger: result.trigger,
    ranges,
    partitionDetails: partition.details,
    summariserRequests: result.summariserRequests.map((_, index) => summariserView(result, index, turnBody, settings.focus)),
    after: {
      summary: after.summary,
      jsonText: after.request ? formatRequestJson(after.request.body) : null,
      api: after.request?.api ?? null,
      messageCount: after.messages.length,
      prefixBreak: after.prefixBreak,
      followingTurns: after.followingTurns.map(({ body: _body, ...rest }) => rest),
      storedRecordJson: after.storedRecord ? formatRequestJson(after.storedRecord) : null,
    },
    verdict: result.verdict,
    tokens: result.tokens,
    findings: result.findings,
    inferred: result.inferred,
  };
}

// ---------------------------------------------------------------------------------------------
// Runs (cached)

/** A tiny LRU of computed values by key. */
class Lru<T> {
  private readonly map = new Map<string, T>();
  constructor(private readonly size: number) {}
  get(key: string, compute: () => T): T {
    const hit = this.map.get(key);
    if (hit !== undefined) {
      this.map.delete(key);
      this.map.set(key, hit);
      return hit;
    }
    const value = compute();
    this.map.set(key, value);
    if (this.map.size > this.size) this.map.delete(this.map.keys().next().value as string);
    return value;
  }
}


/** Simulator calls of one open session, with caches. */
export class SimulatorService {
  private readonly views = new Lru<SimulationView>(8);
  private readonly spirals = new Lru<SpiralView>(4);
  private readonly replays = new Lru<ReplayView["replay"]>(8);
  private readonly inferences = new Lru<InferenceRun>(8);

  constructor(private readonly session: Session) {}

  /**
   * The settings consistent with the recorded compactions (policy defaults for the rest), worked
   * on for about `sliceMs` (the worker keeps answering the page between calls); `progress` says
   * whether it is complete, and the next call with the same settings goes on from there. Without
   * `sliceMs` it runs to the end.
   */
  infer(options: PipelineOptions, settings: SimulatorSettings, sliceMs = Number.POSITIVE_INFINITY, now: () => number = () => 0): SettingsInference {
    const policy = getPolicy(settings.policyId);
    const inferOptions = withPolicyProfile(this.session, options, policy);
    const given = { ...effectiveParameters(policy, { ...settings, inferred: null }), manualCompactions: settings.manualCompactions ?? [] };
    const run = this.inferences.get(JSON.stringify({ options: inferOptions, policyId: policy.id, given }), () => startInference(this.session, inferOptions, policy.id, given));
    run.step(sliceMs, now);
    return run.current();
  }

  simulate(options: PipelineOptions, settings: SimulatorSettings): SimulationView {
    return this.views.get(JSON.stringify({ options, settings }), () => {
      const result = runSimulation(this.session, options, settings);
      const turnContext = buildTurnContext(this.session, options, result.turn);
      const turnBody = buildTurnRequest(this.session, options, result.turn).body;
      return simulationView(result, turnContext, turnBody, options, settings, messageCharsEstimator(this.session, options));
    });
  }

  /** The policy's spiral run (opencode CP-OC-8/10/32) at the settings' turn, with its fix off and on. */
  spiral(options: PipelineOptions, settings: SimulatorSettings, attempts: number): SpiralView {
    return this.spirals.get(JSON.stringify({ options, settings, attempts }), () => {
      const policy = getPolicy(settings.policyId);
      if (!policy.spiral) throw new Error(`policy "${policy.id}" has no spiral run`);
      const input = simulationInput(this.session, options, settings, policy.id);
      return { attempts, ...policy.spiral(input, buildSimulationContext(input, policy), attempts) };
    });
  }

  replay(options: PipelineOptions, settings: SimulatorSettings, policyId: PolicyId, range: { fromTurn?: number; toTurn?: number } = {}): ReplayView["replay"] {
    const replayOptions = withPolicyProfile(this.session, options, getPolicy(policyId));
    return this.replays.get(JSON.stringify({ options: replayOptions, settings: { ...settings, turn: 0, summary: null, focus: null }, policyId, range }), () => {
      const { parameters, limits } = effectiveParameters(getPolicy(policyId), settings);
      return replaySession(this.session, replayOptions, policyId, { ...(parameters ? { parameters } : {}), ...(limits ? { limits } : {}), ...range });
    });
  }

  compare(options: PipelineOptions, settings: SimulatorSettings, otherPolicyId: PolicyId): CompareView {
    const a = this.replay(options, settings, settings.policyId);
    // The second policy gets the same limits and reserve, its own parameter defaults.
    const b = this.replay(options, { ...settings, parameters: {} }, otherPolicyId);
    return { a, b, comparison: comparePolicies(a, b) };
  }
}
