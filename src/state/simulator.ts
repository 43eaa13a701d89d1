// State and actions of the Simulate panel. The user's
// settings live here; every run happens in the worker (src/app/simulator.ts). Each kind of run
// has its own lane, so a newer run makes an older answer stale, and `latestOnly` keeps rapid edits
// (typing a summary, stepping turns) from queueing one simulation per keystroke. Results are
// dropped when another session is opened.
import { create } from "zustand";
import type { PolicyId, PolicyParameters, ReplayResult } from "../core/simulate";
import { isStale } from "../worker/client";
import type { CompareView, ModelWindowChoice, PolicyInfo, SimulationView, SimulatorSettings, SpiralView, SummaryChoice } from "../app/simulatorTypes";
import { pipeline, pipelineOptions } from "./actions";
import { latestOnly } from "./latestOnly";
import { getAppState, useAppStore } from "./store";

type Status = "idle" | "running" | "ready" | "error";

export interface RunState<T> {
  status: Status;
  result: T | null;
  error: string | null;
}

export interface SimulatorUiState {
  open: boolean;
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
}

const idle = { status: "idle" as const, result: null, error: null };

export const useSimulatorStore = create<SimulatorUiState>()(() => ({
  open: false,
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
}));

const setSim = useSimulatorStore.setState;
const getSim = useSimulatorStore.getState;

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A typed non-negative integer, or null when empty or not a number. */
export function parseCount(text: string): number | null {
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
  };
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

async function loadPolicies(): Promise<void> {
  if (getSim().policies) return;
  try {
    const policies = await pipeline().call("simulatorPolicies", {});
    setSim({ policies, policiesError: null });
  } catch (error) {
    if (!isStale(error)) setSim({ policiesError: message(error) });
  }
}

export function toggleSimulator(): void {
  const open = !getSim().open;
  setSim({ open });
  if (open) void loadPolicies();
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

/** Turns where the last whole-session replay fired automatic compaction (timeline badges). */
export function simulatedCompactionTurns(state: SimulatorUiState): number[] | null {
  return state.replay.result?.compactions ?? null;
}

// Results describe one session: another open (or a new analysis) drops them.
useAppStore.subscribe((state, previous) => {
  if (state.session !== previous.session) setSim({ simulation: idle, spiral: idle, replay: idle, compare: idle });
});
