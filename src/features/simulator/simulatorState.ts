// State and actions of the Simulate panel. The user's
// settings live here; every run happens in the worker (src/features/simulator/simulatorService.ts). Each kind of run
// has its own lane, so a newer run makes an older answer stale, and `latestOnly` keeps rapid edits
// (typing a summary, stepping turns) from queueing one simulation per keystroke. Results are
// dropped when another session is opened.
import { create } from "zustand";
import type { LimitOverrides, PolicyId, PolicyParameters, ReplayResult, SettingsInference } from "../../core/session/simulate/index";
import { decodeSimulatorShare, encodeSimulatorShare, type SharedSimulator } from "./simulatorShare";
import type { ShareSimulation } from "../../core/share/payload-v1";
import { isStale } from "../../worker/client";
import type { CompareView, ModelWindowChoice, PolicyInfo, SimulationView, SimulatorSettings, SpiralView, SummaryChoice } from "./protocol";
import { pipeline, pipelineOptions } from "../../page/workerBridge";
import { latestOnly } from "../../page/latestOnly";
import { getAppState, useAppStore } from "../../page/store";

type Status = "idle" | "running" | "ready" | "error";

interface RunState<T> {
  status: Status;
  result: T | null;
  error: string | null;
}

export interface SimulatorUiState {
  open: boolean;
  /** The panel takes the whole width (over the timeline and the request); otherwise it sits beside the request. */
  wide: boolean;
  policies: PolicyInfo[] | null;
  policiesError: string | null;
  policyId: PolicyId;
  /** Parameters the user changed, per policy (switching policies keeps each one's edits). */
  parameters: Partial<Record<PolicyId, PolicyParameters>>;
  summaryKind: SummaryChoice["kind"];
  summaryText: string;
  /** Placeholder size in tokens, as typed. */
  summaryTokens: string;
  focus: string;
  /** Limits as typed ("" = from the session). */
  contextWindow: string;
  reserve: string;
  maxOutputTokens: string;
  inputLimit: string;
  manual: boolean;
  modelWindow: ModelWindowChoice;
  agentDefaultWindow: string;
  providerDefaultWindow: string;
  simulation: RunState<SimulationView>;
  /** The settings the shown simulation was run with (export of its requests uses them). */
  simulationSettings: SimulatorSettings | null;
  spiralAttempts: number;
  spiral: RunState<SpiralView>;
  replay: RunState<ReplayResult>;
  comparePolicy: PolicyId;
  compare: RunState<CompareView>;
  /** Settings consistent with the session's recorded compactions, for the current policy. */
  inference: RunState<SettingsInference>;
  /** Use the inferred settings under the user's own (off: the policy defaults). */
  useInferred: boolean;
  /** Inferred values a share link carried, for its policy (they win over a new inference). */
  sharedInferred: { policyId: PolicyId; parameters: PolicyParameters; limits: LimitOverrides } | null;
  /** What the shown inference was computed for (inferenceKeyOf). */
  inferenceKey: string | null;
  /** Recorded compactions (1-based) the user marked manual, where the file does not say. */
  manualCompactions: number[];
}

const idle = { status: "idle" as const, result: null, error: null };

export const useSimulatorStore = create<SimulatorUiState>()(() => ({
  open: false,
  wide: false,
  policies: null,
  policiesError: null,
  policyId: "pi",
  parameters: {},
  summaryKind: "default",
  summaryText: "",
  summaryTokens: "",
  focus: "",
  contextWindow: "",
  reserve: "",
  maxOutputTokens: "",
  inputLimit: "",
  manual: false,
  modelWindow: "recorded",
  agentDefaultWindow: "",
  providerDefaultWindow: "",
  simulation: idle,
  simulationSettings: null,
  spiralAttempts: 4,
  spiral: idle,
  replay: idle,
  comparePolicy: "opencode",
  compare: idle,
  inference: idle,
  useInferred: true,
  sharedInferred: null,
  inferenceKey: null,
  manualCompactions: [],
}));

const setSim = useSimulatorStore.setState;
const getSim = useSimulatorStore.getState;

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A typed non-negative integer, or null when empty or not a number. */
function parseCount(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  const value = Number(trimmed);
  return Number.isFinite(value) && value >= 0 ? Math.floor(value) : null;
}

/** The settings the worker gets for `turn` (plain data; also the worker's cache key). */
export function simulatorSettings(turn: number, state: SimulatorUiState = getSim()): SimulatorSettings {
  const limits: SimulatorSettings["limits"] = {};
  const window = parseCount(state.contextWindow);
  const output = parseCount(state.maxOutputTokens);
  const input = parseCount(state.inputLimit);
  if (window !== null) limits.contextWindow = window;
  if (output !== null) limits.maxOutputTokens = output;
  if (input !== null) limits.inputLimit = input;
  const summary: SummaryChoice =
    state.summaryKind === "text"
      ? { kind: "text", text: state.summaryText }
      : state.summaryKind === "placeholder"
        ? { kind: "placeholder", tokens: parseCount(state.summaryTokens) }
        : { kind: "default" };
  return {
    turn,
    policyId: state.policyId,
    parameters: state.parameters[state.policyId] ?? {},
    summary,
    focus: state.focus.trim() ? state.focus : null,
    limits,
    reserve: parseCount(state.reserve),
    manual: state.manual,
    modelWindow: state.modelWindow,
    agentDefaultContextWindow: parseCount(state.agentDefaultWindow),
    providerDefaultContextWindow: parseCount(state.providerDefaultWindow),
    instructions: capturedInstructions(state.policyId),
    inferred: inferredInUse(state),
    manualCompactions: state.manualCompactions,
  };
}

/** The inferred settings the simulation uses: a share link's, else the current inference's. */
function inferredInUse(state: SimulatorUiState): SimulatorSettings["inferred"] {
  if (!state.useInferred) return null;
  if (state.sharedInferred?.policyId === state.policyId) return { parameters: state.sharedInferred.parameters, limits: state.sharedInferred.limits };
  const result = state.inference.result;
  if (!result || result.policyId !== state.policyId) return null;
  return { parameters: result.parameters, limits: result.limits };
}

/** pi's summariser instruction slots filled from the captures attached in the app, for the policies that take them (pi and senpi). */
function capturedInstructions(policyId: PolicyId): SimulatorSettings["instructions"] {
  const policy = getSim().policies?.find((p) => p.id === policyId);
  if (!policy?.usesAttachedSummariserCaptures) return null;
  const captured = getAppState().options.compactionInstructions;
  if (!captured) return null;
  const slots: Record<string, string> = {};
  for (const name of ["summarizationSystemPrompt", "initialPrompt", "updatePrompt", "turnPrefixPrompt"] as const) {
    const text = captured[name];
    if (typeof text === "string") slots[name] = text;
  }
  return Object.keys(slots).length > 0 ? { slots, sources: captured.sources ?? [] } : null;
}

// ---------------------------------------------------------------------------------------------
// Panel

/**
 * The session whose policies are listed (they say whether each runs on it), and whether its own
 * policy was chosen yet; by file, agent and profile, so the final read of a file shown
 * provisionally keeps the user's choice, and another profile opens on the policy that runs it.
 */
let policiesFor: { session: string; chosen: boolean } | null = null;

/**
 * Lists the policies for the open session (each says whether it runs on it, and why not) and, the
 * first time for a session, opens on the policy of the agent that wrote it (a share link's policy wins).
 */
async function loadPolicies(): Promise<void> {
  const summary = getAppState().session;
  if (!summary) return;
  // The profile too: choosing senpi on a pi file opens the senpi policy, as the compaction rows name it.
  const session = `${summary.formatId}|${summary.fileName}|${getAppState().options.profile ?? ""}`;
  if (policiesFor?.session === session && getSim().policies) return;
  const keepPolicy = policiesFor?.session === session && policiesFor.chosen;
  policiesFor = { session, chosen: keepPolicy };
  try {
    const { policies, sessionPolicyId } = await pipeline().call("simulatorPolicies", { options: pipelineOptions() });
    if (getAppState().session !== summary) return;
    const patch: Partial<SimulatorUiState> = { policies, policiesError: null };
    if (!policiesFor.chosen) {
      policiesFor.chosen = true;
      if (sessionPolicyId !== null && !sharedPolicyChosen) patch.policyId = sessionPolicyId;
      const other = policies.find((p) => p.id !== (patch.policyId ?? getSim().policyId) && p.supported);
      if (other && !policies.find((p) => p.id === getSim().comparePolicy)?.supported) patch.comparePolicy = other.id;
    }
    setSim(patch);
  } catch (error) {
    if (!isStale(error)) setSim({ policiesError: message(error) });
  }
}

/** A share link named the policy: it is kept over the session's own. */
let sharedPolicyChosen = false;

export function toggleSimulator(): void {
  const open = !getSim().open;
  setSim({ open });
  if (open) void loadPolicies();
}

/** Switches the panel between beside the request and the whole width. */
export function toggleSimulatorWidth(): void {
  setSim({ wide: !getSim().wide });
}

export function closeSimulator(): void {
  setSim({ open: false });
}

/** Partial settings update from the controls (the panel re-runs the simulation on change). */
export function setSimulator(patch: Partial<SimulatorUiState>): void {
  setSim(patch);
}

export function setPolicy(policyId: PolicyId): void {
  setSim({ policyId, spiral: idle });
}

export function setUseInferred(useInferred: boolean): void {
  setSim({ useInferred });
}

/** Marks a recorded compaction manual (or automatic again); a share link's inferred values give way to a new inference. */
export function setCompactionManual(index: number, manual: boolean): void {
  const current = getSim().manualCompactions.filter((k) => k !== index);
  setSim({ manualCompactions: manual ? [...current, index].sort((a, b) => a - b) : current, sharedInferred: null });
}

/** How long the worker works on an inference per call: it answers the page's other calls in between. */
const INFER_SLICE_MS = 120;

/**
 * Runs one inference at a time, slice by slice: each answer's bounds are shown as they narrow, and
 * a newer key (another policy, new settings, another session) stops the older one at its next slice.
 */
const inferLatest = latestOnly(async (key: string) => {
  const settings = { ...simulatorSettings(1), inferred: null };
  const options = pipelineOptions();
  setSim((state) => ({ inference: { ...state.inference, status: "running", error: null } }));
  try {
    for (;;) {
      const result = await pipeline().call("inferSettings", { options, settings, sliceMs: INFER_SLICE_MS }, "infer");
      // A newer inference was asked for: this one stops here.
      if (inferLatest.lastAsked() !== key) return;
      if (result.progress.complete) {
        setSim({ inference: { status: "ready", result, error: null }, inferenceKey: key });
        return;
      }
      setSim({ inference: { status: "running", result, error: null } });
    }
  } catch (error) {
    if (isStale(error)) return;
    setSim({ inference: { status: "error", result: null, error: message(error) }, inferenceKey: key });
  }
});

/** The key of what inference depends on: the policy and the user's own settings. */
export function inferenceKeyOf(state: SimulatorUiState): string {
  const { turn: _turn, inferred: _inferred, summary: _summary, focus: _focus, instructions: _instructions, ...rest } = simulatorSettings(1, state);
  return JSON.stringify(rest);
}

/** Whether the shown inference belongs to the current policy and settings (or failed for them). */
export function inferenceSettled(state: SimulatorUiState): boolean {
  return state.inference.status !== "running" && state.inferenceKey !== null && state.inferenceKey.startsWith(`${inferenceKeyOf(state)}|`);
}

/** Infers the current policy's settings from the recorded compactions, taking the user's own settings as known. */
export function loadInference(): void {
  const key = `${inferenceKeyOf(getSim())}|${JSON.stringify(pipelineOptions())}`;
  if (getSim().inferenceKey === key) return;
  inferLatest(key);
}

/** Restores the panel from a share link's simulator settings and opens it. */
function applySharedSimulator(shared: SharedSimulator): void {
  const parameters = { ...getSim().parameters, [shared.policyId]: shared.parameters };
  const text = (value: number | null | undefined) => (value === null || value === undefined ? "" : String(value));
  setSim({
    open: true,
    policyId: shared.policyId,
    parameters,
    contextWindow: text(shared.limits.contextWindow),
    maxOutputTokens: text(shared.limits.maxOutputTokens),
    inputLimit: text(shared.limits.inputLimit),
    reserve: text(shared.reserve),
    manual: shared.manual,
    focus: shared.focus ?? "",
    summaryKind: shared.summary.kind,
    summaryText: shared.summary.kind === "text" ? shared.summary.text : "",
    summaryTokens: shared.summary.kind === "placeholder" ? text(shared.summary.tokens) : "",
    modelWindow: shared.modelWindow,
    agentDefaultWindow: text(shared.agentDefaultContextWindow),
    providerDefaultWindow: text(shared.providerDefaultContextWindow),
    useInferred: shared.inferred !== null,
    sharedInferred: shared.inferred ? { policyId: shared.policyId, ...shared.inferred } : null,
    manualCompactions: shared.manualCompactions,
  });
  sharedPolicyChosen = true;
  void loadPolicies();
}

export function setParameter(name: string, value: string | number | boolean | null): void {
  const { policyId, parameters } = getSim();
  setSim({ parameters: { ...parameters, [policyId]: { ...(parameters[policyId] ?? {}), [name]: value } } });
}

export function resetParameters(): void {
  const { policyId, parameters } = getSim();
  setSim({ parameters: { ...parameters, [policyId]: {} } });
}

// ---------------------------------------------------------------------------------------------
// Runs

const simulateLatest = latestOnly(async (turn: number) => {
  const settings = simulatorSettings(turn);
  setSim((state) => ({ simulation: { ...state.simulation, status: "running", error: null } }));
  try {
    const result = await pipeline().call("simulate", { options: pipelineOptions(), settings }, "simulate");
    setSim({ simulation: { status: "ready", result, error: null }, simulationSettings: settings });
  } catch (error) {
    if (isStale(error)) return;
    setSim({ simulation: { status: "error", result: null, error: message(error) }, simulationSettings: null });
  }
});

/** Simulates at `turn` with the current settings (latest call wins). */
export function runSimulation(turn: number): void {
  simulateLatest(turn);
}

export async function runSpiral(turn: number): Promise<void> {
  const settings = simulatorSettings(turn);
  setSim((state) => ({ spiral: { ...state.spiral, status: "running", error: null } }));
  try {
    const result = await pipeline().call("spiralRun", { options: pipelineOptions(), settings, attempts: getSim().spiralAttempts }, "spiral");
    setSim({ spiral: { status: "ready", result, error: null } });
  } catch (error) {
    if (isStale(error)) return;
    setSim({ spiral: { status: "error", result: null, error: message(error) } });
  }
}

export async function runReplay(): Promise<void> {
  const settings = simulatorSettings(1);
  setSim((state) => ({ replay: { ...state.replay, status: "running", error: null } }));
  try {
    const result = await pipeline().call("replaySession", { options: pipelineOptions(), settings }, "replay");
    setSim({ replay: { status: "ready", result: result.replay, error: null } });
  } catch (error) {
    if (isStale(error)) return;
    setSim({ replay: { status: "error", result: null, error: message(error) } });
  }
}

export async function runCompare(): Promise<void> {
  const settings = simulatorSettings(1);
  setSim((state) => ({ compare: { ...state.compare, status: "running", error: null } }));
  try {
    const result = await pipeline().call("comparePolicies", { options: pipelineOptions(), settings, otherPolicyId: getSim().comparePolicy }, "compare");
    setSim({ compare: { status: "ready", result, error: null } });
  } catch (error) {
    if (isStale(error)) return;
    setSim({ compare: { status: "error", result: null, error: message(error) } });
  }
}

export function clearReplay(): void {
  setSim({ replay: idle, compare: idle });
}

/** The Simulate panel's settings when it shows a simulation, for a share link (which then reopens it). */
export function linkSimulation(): ShareSimulation | null {
  const sim = getSim();
  return sim.open && sim.simulationSettings ? encodeSimulatorShare(sim.simulationSettings) : null;
}

/**
 * Calls `listener` with the turns where the whole-session replay would fire automatic compaction
 * (null without a replay) each time they change; returns the unsubscribe.
 */
export function watchReplayCompactions(listener: (turns: readonly number[] | null) => void): () => void {
  return useSimulatorStore.subscribe((state, previous) => {
    const turns = state.replay.result?.compactions ?? null;
    if (turns !== (previous.replay.result?.compactions ?? null)) listener(turns);
  });
}

// Results describe one session: another open (or a new analysis) drops them.
// A share link's simulator settings are restored when its session opens.
useAppStore.subscribe((state, previous) => {
  if (state.session === previous.session) {
    // Another profile of the same session: its own policy (unless a share link named one).
    if (state.options.profile !== previous.options.profile && getSim().open && !sharedPolicyChosen) {
      setSim({ policies: null, simulation: idle, spiral: idle, replay: idle, compare: idle, inference: idle, inferenceKey: null });
      void loadPolicies();
    }
    return;
  }
  setSim({ policies: null, simulation: idle, spiral: idle, replay: idle, compare: idle, inference: idle, sharedInferred: null, inferenceKey: null, manualCompactions: [] });
  sharedPolicyChosen = false;
  const shared = decodeSimulatorShare(state.session?.shared?.view.simulation);
  if (shared) applySharedSimulator(shared);
  else if (getSim().open) void loadPolicies();
});
