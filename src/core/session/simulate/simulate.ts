// The simulator's entry point (CP-0-1, CP-0-2): builds turn N's context and request once, resolves
// the limits and the policy parameters, runs the policy and returns its result. Pure; never calls
// a model (CP-0-3).
import { findAgent } from "../agents";
import { analyzeSession, buildTurnContext, buildTurnRequest, countTurns, TURN_PIPELINE } from "../pipeline";
import type { ModelInfo, Session } from "../../model";
import { resolveModel } from "../../models/catalogue";
import { resolveLimits } from "../../simulate/limits";
import { providerTokenCount } from "./provider-count";
import { UnreplayablePointError } from "../../simulate/point-error";
import { getPolicy } from "./policies";
import type { CompactionPolicy, LimitOverrides, PolicyParameters, ResolvedLimits, SimulationContext, SimulationInput, SimulationResult } from "../../simulate/types";

/** A policy asked to run on a session it cannot run on; the message says why in plain words. */
class PolicyNotApplicableError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "PolicyNotApplicableError";
  }
}

/** Policy defaults overlaid with the given parameters. */
export function resolveParameters(policy: CompactionPolicy, given: PolicyParameters | undefined): PolicyParameters {
  const out: PolicyParameters = {};
  for (const spec of policy.parameters) out[spec.name] = spec.default;
  for (const [name, value] of Object.entries(given ?? {})) if (value !== undefined) out[name] = value;
  return out;
}

/** The largest prompt (input, cache reads and writes) a turn of the session recorded, by session and size. */
const largestContexts = new WeakMap<Session, { entries: number; leafId: string | null; tokens: number }>();

function largestRecordedContext(session: Session, options: SimulationInput["options"]): number {
  const known = largestContexts.get(session);
  const leafId = options.leafId ?? null;
  if (known && known.entries === session.entries.length && known.leafId === leafId) return known.tokens;
  let tokens = 0;
  for (const turn of analyzeSession(session, options).turns) {
    const usage = turn.usage;
    if (usage) tokens = Math.max(tokens, usage.input + usage.cacheRead + usage.cacheWrite);
  }
  largestContexts.set(session, { entries: session.entries.length, leafId, tokens });
  return tokens;
}

/**
 * The window of a model the catalogue does not know, raised to the largest context the session
 * reached: the session itself shows the model's window is at least that large. Null when the
 * model's facts give the window (our list, a capture, the user's edit) or the session stayed
 * below the default. The simulator and the Details panel both use it.
 */
export function windowFromSession(session: Session, options: SimulationInput["options"], model: ModelInfo): number | null {
  if (resolveLimits(model).contextWindowSource !== "catalogue-default") return null;
  const largest = largestRecordedContext(session, options);
  return largest > model.contextWindow ? largest : null;
}

const INFERRED = "inferred from this session's compactions" as const;

/** Marks the limits settings inference supplied, so no display calls them the user's. */
function withInferredSources(limits: ResolvedLimits, inferred: readonly (keyof LimitOverrides)[]): ResolvedLimits {
  const marked = { ...limits };
  if (inferred.includes("contextWindow")) marked.contextWindowSource = INFERRED;
  if (inferred.includes("maxOutputTokens")) marked.maxOutputTokensSource = INFERRED;
  if (inferred.includes("inputLimit")) marked.inputLimitSource = INFERRED;
  return marked;
}

/** The limits of the simulation: an unknown model's window from the session (`windowFromSession`), its source saying so. */
function simulationLimits(input: SimulationInput, model: ModelInfo): ResolvedLimits {
  const limits = withInferredSources(resolveLimits(model, input.limits), input.inferredLimits ?? []);
  if (limits.contextWindowSource !== "catalogue-default") return limits;
  const largest = windowFromSession(input.session, input.options, model);
  if (largest === null) return limits;
  return { ...limits, contextWindow: largest, contextWindowSource: "model unknown: the largest context this session reached" };
}

export function buildSimulationContext(input: SimulationInput, policy: CompactionPolicy): SimulationContext {
  const turnContext = buildTurnContext(input.session, input.options, input.turn);
  const model = resolveModel(turnContext.model, turnContext.api, input.options.modelOverrides);
  const context = {
    pipeline: TURN_PIPELINE,
    turnContext,
    limits: simulationLimits(input, model),
    turnCount: countTurns(input.session, input.options),
    parameters: resolveParameters(policy, input.parameters),
  } as SimulationContext;
  // Turn N's request is serialized only when the policy reads it: a trigger that counts the
  // context (settings inference after every turn) never pays for it.
  let turnRequest: SimulationContext["turnRequest"] | null = null;
  Object.defineProperty(context, "turnRequest", {
    enumerable: true,
    get: () => {
      if (!turnRequest) {
        const built = buildTurnRequest(input.session, input.options, input.turn);
        turnRequest = { api: built.api, body: built.body };
      }
      return turnRequest;
    },
  });
  return context;
}

/** Runs `input.policyId` at `input.turn` (or at `input.recordedCompactionEntryId`). */
export function simulateCompaction(input: SimulationInput): SimulationResult {
  const policy = getPolicy(input.policyId);
  const notApplicable = policy.notApplicable?.(input.session) ?? null;
  if (notApplicable !== null) throw new PolicyNotApplicableError(notApplicable);
  let resolved = input;
  const replayTurn = findAgent(input.session.formatId)?.recorded?.replayTurn;
  if (input.recordedCompactionEntryId !== undefined && replayTurn) {
    // Re-simulation: the agent says which turn the recorded compaction follows.
    resolved = { ...input, turn: replayTurn(input.session, input.options, input.turn, input.recordedCompactionEntryId) };
  }
  if (!(resolved.turn >= 1)) {
    const message = `turn ${resolved.turn} does not exist: there is no answered turn before this point`;
    throw input.recordedCompactionEntryId !== undefined ? new UnreplayablePointError(message) : new RangeError(message);
  }
  const context = buildSimulationContext(resolved, policy);
  const result = policy.simulate(resolved, context);
  if (input.providerCount === false || input.triggerOnly === true) return result;
  return { ...result, tokens: { ...result.tokens, provider: providerTokenCount(result, context) } };
}
