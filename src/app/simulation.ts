// The compaction simulator's settings and the one simulation they amount to, shared by the
// Simulate panel (the worker's simulator service) and the export of a simulated request (the page
// and the CLI's share/export path): the panel's settings mapped to a SimulationInput, and the last
// simulation of a session kept so the panel and an export of its request run it once.
import type { ApiId, PipelineOptions, Session } from "../core/model";
import {
  getPolicy,
  simulateCompaction,
  type CompactionPolicy,
  type LimitOverrides,
  type PolicyId,
  type PolicyParameters,
  type SimulationInput,
  type SimulationResult,
  type SummarySource,
} from "../core/session/simulate/index";

/** Which model's context window the simulation uses (model-resolution precedence). */
export type ModelWindowChoice = "recorded" | "agent-default" | "provider-default" | "precedence";

/** CP-0-3: where the summary text comes from, as the panel offers it. */
export type SummaryChoice =
  | { kind: "default" }
  | { kind: "text"; text: string }
  | { kind: "placeholder"; tokens: number | null };

/** Everything the user set in the Simulate panel (plain data, also the cache key). */
export interface SimulatorSettings {
  turn: number;
  policyId: PolicyId;
  /** Only the parameters the user changed; the others take the policy defaults. */
  parameters: PolicyParameters;
  summary: SummaryChoice;
  focus: string | null;
  limits: LimitOverrides;
  /** The policy's reserve (pi/senpi `reserveTokens`, opencode `reserved`), from the limits row. */
  reserve: number | null;
  manual: boolean;
  modelWindow: ModelWindowChoice;
  agentDefaultContextWindow: number | null;
  providerDefaultContextWindow: number | null;
  /**
   * Instruction slot texts from the captured summariser requests attached in the
   * app (pi's slots: summarizationSystemPrompt, initialPrompt, updatePrompt, turnPrefixPrompt).
   */
  instructions: { slots: Record<string, string>; sources: string[] } | null;
  /**
   * Settings inferred from the session's recorded compactions (src/core/session/simulate/infer), used
   * under the user's own parameters and limits; null = the policy defaults.
   */
  inferred?: { parameters: PolicyParameters; limits: LimitOverrides } | null;
  /**
   * 1-based recorded compactions the user marked manual, for files that do not record it (pi,
   * Codex, hermes): settings inference does not bound the trigger by them.
   */
  manualCompactions?: number[];
}

/** A simulated request to export (H18's Export panel): summariser request `index`, or "after". */
export interface SimulatedRequestRef {
  settings: SimulatorSettings;
  request: number | "after";
}

function summarySource(settings: SimulatorSettings): SummarySource | undefined {
  const summary = settings.summary;
  if (summary.kind === "text") return { kind: "text", text: summary.text };
  if (summary.kind === "placeholder") return summary.tokens !== null && summary.tokens > 0 ? { kind: "placeholder", tokens: summary.tokens } : { kind: "placeholder" };
  return undefined;
}

/** The parameters and limits the settings amount to for `policy` (reserve and model window folded in). */
export function effectiveParameters(policy: CompactionPolicy, settings: SimulatorSettings): Pick<SimulationInput, "parameters" | "limits" | "inferredLimits"> {
  const known = new Set(policy.parameters.map((p) => p.name));
  const parameters: Record<string, string | number | boolean | null> = {};
  for (const [name, value] of Object.entries(settings.parameters)) if (known.has(name)) parameters[name] = value;
  const reserveParameter = policy.reserveParameter;
  if (reserveParameter && settings.reserve !== null) parameters[reserveParameter] = settings.reserve;
  const limits = { ...settings.limits };
  const inferredLimits: (keyof typeof limits)[] = [];
  // Inferred settings sit under the user's own (any field the user set wins).
  if (settings.inferred) {
    for (const [name, value] of Object.entries(settings.inferred.parameters)) if (known.has(name) && !(name in parameters)) parameters[name] = value;
    for (const [name, value] of Object.entries(settings.inferred.limits)) {
      const key = name as keyof typeof limits;
      if (limits[key] === undefined && typeof value === "number") {
        limits[key] = value;
        inferredLimits.push(key);
      }
    }
  }
  if (policy.modelChoiceParameters) {
    // The policy resolves the model window by its own rules: the model choice is its input.
    Object.assign(
      parameters,
      policy.modelChoiceParameters({
        agentDefaultContextWindow: settings.agentDefaultContextWindow,
        providerDefaultContextWindow: settings.providerDefaultContextWindow,
        promptCarriesModel: settings.modelWindow !== "precedence",
      }),
    );
  }
  // An explicit context-window override wins over the model choice.
  if (limits.contextWindow === undefined) {
    if (settings.modelWindow === "agent-default" && settings.agentDefaultContextWindow !== null) limits.contextWindow = settings.agentDefaultContextWindow;
    if (settings.modelWindow === "provider-default" && settings.providerDefaultContextWindow !== null) limits.contextWindow = settings.providerDefaultContextWindow;
  }
  return { parameters, limits, inferredLimits };
}

export function simulationInput(session: Session, options: PipelineOptions, settings: SimulatorSettings, policyId: PolicyId = settings.policyId): SimulationInput {
  const policy = getPolicy(policyId);
  const input: SimulationInput = {
    session,
    options,
    turn: settings.turn,
    policyId: policy.id,
    ...effectiveParameters(policy, settings),
    focus: settings.focus?.trim() ? settings.focus : null,
    manual: settings.manual,
  };
  const summary = summarySource(settings);
  if (summary) input.summary = summary;
  if (settings.instructions && Object.keys(settings.instructions.slots).length > 0) {
    const source = settings.instructions.sources.join(", ") || "attached capture";
    const sources: Record<string, string> = {};
    for (const slot of Object.keys(settings.instructions.slots)) sources[slot] = source;
    input.instructions = { slots: settings.instructions.slots, sources };
  }
  return input;
}

/** Last simulation of a session (shared by the panel and the export of a simulated request). */
let lastRaw: { session: Session; key: string; result: SimulationResult } | null = null;

export function runSimulation(session: Session, options: PipelineOptions, settings: SimulatorSettings): SimulationResult {
  const key = JSON.stringify({ options, settings });
  if (lastRaw?.session === session && lastRaw.key === key) return lastRaw.result;
  const result = simulateCompaction(simulationInput(session, options, settings));
  lastRaw = { session, key, result };
  return result;
}

/** The body of a simulated request (summariser request `index`, or the request after compaction), for export. */
export function simulatedRequestBody(session: Session, options: PipelineOptions, ref: SimulatedRequestRef): { api: ApiId; body: Record<string, unknown> } {
  const result = runSimulation(session, options, ref.settings);
  if (ref.request === "after") {
    if (!result.after.request) throw new Error("This simulation has no request after compaction.");
    return result.after.request;
  }
  const request = result.summariserRequests[ref.request];
  if (!request) throw new RangeError(`The simulation has no summariser request ${ref.request + 1}.`);
  return { api: request.api, body: request.body };
}
