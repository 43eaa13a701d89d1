// The Simulate panel's settings inside a share link. A v2 payload's `view.simulation` is a flat
// map of named primitive values (src/core/share/payload-v1.ts); the simulator's settings are
// written into it under reserved prefixes, so the link keeps the v2 format (docs/share-format.md,
// "Simulator settings"): `sim_*` for the panel's own fields, `limit_*` for limit overrides,
// `inferred_*` / `inferredLimit_*` for the inferred settings in use, every other key a policy
// parameter. Reopening the link applies them and shows the same simulation: the inferred values
// travel as values, since a branch-scope link may hold fewer recorded compactions to infer from.
import type { ShareSimulation } from "../../core/share/payload-v1";
import type { LimitOverrides, PolicyParameters } from "../../core/session/simulate/index";
import type { ModelWindowChoice, SimulatorSettings } from "./protocol";

const LIMIT_KEYS = ["contextWindow", "maxOutputTokens", "inputLimit"] as const;
const MODEL_WINDOWS: readonly ModelWindowChoice[] = ["recorded", "agent-default", "provider-default", "precedence"];
const RESERVED = /^(sim|limit|inferred|inferredLimit)_/;

/** What a link restores in the panel. */
export interface SharedSimulator {
  policyId: string;
  turn: number | null;
  parameters: PolicyParameters;
  limits: LimitOverrides;
  reserve: number | null;
  manual: boolean;
  focus: string | null;
  summary: SimulatorSettings["summary"];
  modelWindow: ModelWindowChoice;
  agentDefaultContextWindow: number | null;
  providerDefaultContextWindow: number | null;
  /** The inferred settings in use when the link was made, or null (policy defaults). */
  inferred: { parameters: PolicyParameters; limits: LimitOverrides } | null;
  /** Recorded compactions the user marked manual (`sim_manualCompactions`, "1,3"). */
  manualCompactions: number[];
}

export function encodeSimulatorShare(settings: SimulatorSettings): ShareSimulation {
  const out: ShareSimulation = { sim_policy: settings.policyId, sim_turn: settings.turn, sim_manual: settings.manual, sim_modelWindow: settings.modelWindow };
  for (const [name, value] of Object.entries(settings.parameters)) if (!RESERVED.test(name)) out[name] = value;
  for (const key of LIMIT_KEYS) if (settings.limits[key] !== undefined) out[`limit_${key}`] = settings.limits[key]!;
  if (settings.reserve !== null) out.sim_reserve = settings.reserve;
  if (settings.focus !== null) out.sim_focus = settings.focus;
  out.sim_summary = settings.summary.kind;
  if (settings.summary.kind === "text") out.sim_summaryText = settings.summary.text;
  if (settings.summary.kind === "placeholder") out.sim_summaryTokens = settings.summary.tokens;
  if (settings.agentDefaultContextWindow !== null) out.sim_agentDefaultContextWindow = settings.agentDefaultContextWindow;
  if (settings.providerDefaultContextWindow !== null) out.sim_providerDefaultContextWindow = settings.providerDefaultContextWindow;
  if (settings.manualCompactions && settings.manualCompactions.length > 0) out.sim_manualCompactions = settings.manualCompactions.join(",");
  out.sim_inferred = settings.inferred != null;
  if (settings.inferred) {
    for (const [name, value] of Object.entries(settings.inferred.parameters)) out[`inferred_${name}`] = value;
    for (const [name, value] of Object.entries(settings.inferred.limits)) if (typeof value === "number") out[`inferredLimit_${name}`] = value;
  }
  return out;
}

const num = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

/** The panel settings a link's `view.simulation` holds, or null when it holds none of ours. */
export function decodeSimulatorShare(simulation: ShareSimulation | null | undefined): SharedSimulator | null {
  if (!simulation || typeof simulation.sim_policy !== "string") return null;
  const parameters: PolicyParameters = {};
  const limits: LimitOverrides = {};
  const inferredParameters: PolicyParameters = {};
  const inferredLimits: LimitOverrides = {};
  for (const [key, value] of Object.entries(simulation)) {
    if (key.startsWith("inferredLimit_")) {
      const name = key.slice("inferredLimit_".length) as keyof LimitOverrides;
      if ((LIMIT_KEYS as readonly string[]).includes(name) && num(value) !== null) inferredLimits[name] = num(value)!;
    } else if (key.startsWith("inferred_")) inferredParameters[key.slice("inferred_".length)] = value;
    else if (key.startsWith("limit_")) {
      const name = key.slice("limit_".length) as keyof LimitOverrides;
      if ((LIMIT_KEYS as readonly string[]).includes(name) && num(value) !== null) limits[name] = num(value)!;
    } else if (!RESERVED.test(key)) parameters[key] = value;
  }
  const kind = simulation.sim_summary;
  const summary: SimulatorSettings["summary"] =
    kind === "text" ? { kind: "text", text: typeof simulation.sim_summaryText === "string" ? simulation.sim_summaryText : "" } : kind === "placeholder" ? { kind: "placeholder", tokens: num(simulation.sim_summaryTokens) } : { kind: "default" };
  const window = simulation.sim_modelWindow;
  return {
    policyId: simulation.sim_policy,
    turn: num(simulation.sim_turn),
    parameters,
    limits,
    reserve: num(simulation.sim_reserve),
    manual: simulation.sim_manual === true,
    focus: typeof simulation.sim_focus === "string" ? simulation.sim_focus : null,
    summary,
    modelWindow: MODEL_WINDOWS.includes(window as ModelWindowChoice) ? (window as ModelWindowChoice) : "recorded",
    agentDefaultContextWindow: num(simulation.sim_agentDefaultContextWindow),
    providerDefaultContextWindow: num(simulation.sim_providerDefaultContextWindow),
    inferred: simulation.sim_inferred === true ? { parameters: inferredParameters, limits: inferredLimits } : null,
    manualCompactions: typeof simulation.sim_manualCompactions === "string" ? simulation.sim_manualCompactions.split(",").map(Number).filter((n) => Number.isInteger(n) && n >= 1) : [],
  };
}
