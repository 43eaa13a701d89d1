// Settings inference: the settings an agent compacted with are in the user's configuration, not
// in the session file, but each recorded compaction pins them down. For the policy's keep-recent
// budget (cut.ts) and its trigger setting (trigger.ts), every recorded compaction — and for the
// trigger every turn after which none fired — gives an interval; they are intersected over the
// session. An empty intersection names the compactions that disagree. The policy says which
// settings these are (`CompactionPolicy.inference`); nothing here knows an agent.
import type { PipelineOptions, Session } from "../../../model";
import { countTurns } from "../../pipeline";
import { UnreplayablePointError } from "../../../simulate/point-error";
import { findAgent } from "../../agents";
import { getPolicy } from "../policies";
import { recordedCompactionPoints } from "../recorded";
import { simulateCompaction } from "../simulate";
import type { CompactionPolicy, LimitOverrides, PolicyId, PolicyParameters, SimulationInput, SimulationResult } from "../../../simulate/types";
import { inferCut } from "./cut";
import { triggerBound, type TriggerObservation } from "./trigger";
import type { InferredSetting, SettingBound, SettingsInference } from "./types";

export type { InferredSetting, SettingsInference } from "./types";

export interface InferOptions {
  /** Settings the user gave: they are taken as known, and not inferred. */
  parameters?: PolicyParameters;
  limits?: LimitOverrides;
  api?: PipelineOptions["api"];
  /**
   * 1-based indices of recorded compactions the user says were manual (pi and Codex do not record
   * it): they bound the cut but not the trigger.
   */
  manualCompactions?: number[];
}

function policyDefault(policy: CompactionPolicy, setting: InferredSetting, resolvedLimit: number | null): number | null {
  if (setting.target === "limit") return resolvedLimit;
  const value = policy.parameters.find((p) => p.name === setting.setting)?.default;
  return typeof value === "number" ? value : null;
}

/**
 * The value used by default: the policy's own when it fits, else the nearest bound. With no
 * automatic compaction recorded the bounds only say where the trigger did not fire: a bound taken
 * as the value would make it fire one token later, so with no default of its own the setting is
 * left to the policy's rule (Codex: a share of the model's window).
 */
function chooseValue(min: number | null, max: number | null, fallback: number | null, fired = true): number | null {
  if (!fired && fallback === null) return null;
  if (fallback !== null && (min === null || fallback >= min) && (max === null || fallback <= max)) return fallback;
  if (fallback !== null && max !== null && fallback > max) return max;
  if (min !== null) return min;
  return max;
}

/** Intersects bounds: the highest min and the lowest max, with the bounds that give them. */
function intersect(bounds: SettingBound[]): { min: number | null; max: number | null; deciding: SettingBound[]; conflict: SettingBound[] | null } {
  let min: SettingBound | null = null;
  let max: SettingBound | null = null;
  for (const bound of bounds) {
    if (bound.side === "min" && (min === null || bound.value > min.value)) min = bound;
    if (bound.side === "max" && (max === null || bound.value < max.value)) max = bound;
  }
  const deciding = [min, max].filter((b): b is SettingBound => b !== null);
  const conflict = min !== null && max !== null && min.value > max.value ? [min, max] : null;
  return { min: min?.value ?? null, max: max?.value ?? null, deciding, conflict };
}

function where(bound: SettingBound): string {
  return bound.compaction !== null ? `compaction ${bound.compaction} (after turn ${bound.turn})` : `turn ${bound.turn} (no compaction)`;
}

/** An inference under way: `step` advances it for a time budget, `current` is what it bounds so far. */
export interface InferenceRun {
  /**
   * Does work until `budgetMs` has passed on `now` (at least one unit of work), and says whether
   * the inference is complete. The recorded compactions come first, then the turns where none
   * fired, coarse to fine, so the bounds are close early and narrow as it goes.
   */
  step(budgetMs: number, now: () => number): boolean;
  /** The inference from the work done so far (`progress` says how far). */
  current(): SettingsInference;
}

/**
 * The turns after which no compaction is recorded, in the order they are checked: the last turns
 * and those just before each compaction first (where usage is highest, so the bounds are tightest),
 * then every 64th, 32nd, … turn, so an inference stopped early has looked at the whole session.
 */
function quietTurnOrder(total: number, compactedTurns: ReadonlySet<number>): number[] {
  const order: number[] = [];
  const seen = new Set<number>();
  const add = (turn: number) => {
    if (turn < 1 || turn >= total || compactedTurns.has(turn) || seen.has(turn)) return;
    seen.add(turn);
    order.push(turn);
  };
  add(total - 1);
  for (const turn of [...compactedTurns].sort((a, b) => b - a)) add(turn - 1);
  for (let stride = 64; stride >= 1; stride = Math.floor(stride / 2)) {
    for (let turn = total - 1; turn >= 1; turn -= stride) add(turn);
  }
  return order;
}

export function startInference(session: Session, options: PipelineOptions, policyId: PolicyId, given: InferOptions = {}): InferenceRun {
  const policy = getPolicy(policyId);
  const notApplicable = policy.notApplicable?.(session) ?? null;
  if (notApplicable !== null) {
    const empty: SettingsInference = { policyId: policy.id, settings: [], consistent: true, conflicts: [], notes: [notApplicable], parameters: {}, limits: {}, recordsManual: true, compactions: [], progress: { checked: 0, total: 0, complete: true } };
    return { step: () => true, current: () => empty };
  }
  const inference = policy.inference;
  const base = (extra: Partial<SimulationInput>, turn: number): SimulationResult =>
    simulateCompaction({ session, options, turn, policyId: policy.id, parameters: given.parameters, limits: given.limits, followingTurns: 0, api: given.api ?? null, providerCount: false, ...extra });

  // The state the steps fill.
  let points: ReturnType<typeof recordedCompactionPoints> = [];
  let atPoint: (SimulationResult | null)[] = [];
  const pointNotes: string[] = [];
  let cutSetting: InferredSetting | null = null;
  const compactionObservations: TriggerObservation[] = [];
  const quietObservations: TriggerObservation[] = [];
  const manualNotes: string[] = [];
  let quietTurns: number[] = [];
  let quietChecked = 0;
  let total = 0;
  // The phases, each a list of units of work run in order.
  const units: (() => void)[] = [];

  units.push(() => {
    points = recordedCompactionPoints(session, options);
    total = countTurns(session, options);
  });
  // Each recorded compaction once with the given settings: its real turn and trigger.
  units.push(() => {
    atPoint = points.map((point, i) => {
      try {
        return base({ recordedCompactionEntryId: point.entryId, manual: point.manual }, point.turn);
      } catch (error) {
        if (!(error instanceof UnreplayablePointError)) throw error;
        pointNotes.push(`compaction ${i + 1} (${point.entryId}) cannot be re-run: ${error.message}`);
        return null;
      }
    });
  });
  // (1) The cut: the keep-recent budget, from every recorded compaction.
  const cut = inference?.cut;
  if (cut && given.parameters?.[cut.parameter] === undefined) {
    units.push(() => {
      cutSetting = inferCutSetting(session, policy, cut, points, atPoint, given, base);
    });
  }
  // (2) The trigger: fired at every automatic compaction, did not fire after the other turns.
  const trigger = inference?.trigger;
  if (trigger) {
    units.push(() => {
      const compactedTurns = new Set<number>();
      points.forEach((point, i) => {
        const result = atPoint[i];
        if (!result) return;
        compactedTurns.add(result.turn);
        const setting = trigger(result);
        const manual = point.manual || (given.manualCompactions ?? []).includes(i + 1);
        if (manual) manualNotes.push(`compaction ${i + 1} is manual: it does not bound the trigger`);
        if (!manual && setting) compactionObservations.push({ turn: result.turn, compaction: i + 1, entryId: point.entryId, result, setting });
      });
      // The last turn is left out: an agent that checks before the next prompt never checked after it.
      quietTurns = quietTurnOrder(total, compactedTurns);
    });
  }
  let next = 0;
  const quietUnit = (): boolean => {
    if (!trigger || quietChecked >= quietTurns.length) return false;
    const turn = quietTurns[quietChecked++]!;
    let result: SimulationResult;
    try {
      result = base({ triggerOnly: true }, turn);
    } catch {
      return true;
    }
    const setting = trigger(result);
    if (setting) quietObservations.push({ turn, compaction: null, entryId: null, result, setting });
    return true;
  };

  const run: InferenceRun = {
    step(budgetMs, now) {
      const start = now();
      do {
        if (next < units.length) units[next++]!();
        else if (!quietUnit()) return true;
      } while (now() - start < budgetMs);
      return next >= units.length && (!trigger || quietChecked >= quietTurns.length);
    },
    current() {
      const settings: InferredSetting[] = [];
      const notes = [...pointNotes];
      if (cutSetting) settings.push(cutSetting);
      const assumedManual = new Set<number>();
      if (trigger && next >= units.length) {
        notes.push(...manualNotes);
        // The compactions first, then the quiet turns in turn order (whatever order they were checked in).
        const observations = [...compactionObservations, ...[...quietObservations].sort((a, b) => a.turn - b.turn)];
        const triggerSetting = inferTriggerSetting(session, policy, observations, given, assumedManual, notes);
        if (triggerSetting) settings.push(triggerSetting);
      }
      const complete = next >= units.length && (!trigger || quietChecked >= quietTurns.length);
      return assemble(session, policy, settings, notes, points, atPoint, given, assumedManual, { checked: quietChecked, total: quietTurns.length, complete });
    },
  };
  return run;
}

/** Runs an inference to the end (the CLI, tests, and hosts that need not stay responsive). */
export function inferSettings(session: Session, options: PipelineOptions, policyId: PolicyId, given: InferOptions = {}): SettingsInference {
  const run = startInference(session, options, policyId, given);
  while (!run.step(Number.POSITIVE_INFINITY, () => 0));
  return run.current();
}

function inferCutSetting(
  session: Session,
  policy: CompactionPolicy,
  cut: NonNullable<NonNullable<CompactionPolicy["inference"]>["cut"]>,
  points: ReturnType<typeof recordedCompactionPoints>,
  atPoint: (SimulationResult | null)[],
  given: InferOptions,
  base: (extra: Partial<SimulationInput>, turn: number) => SimulationResult,
): InferredSetting | null {
  const bounds: SettingBound[] = [];
  const failures: string[] = [];
  points.forEach((point, i) => {
    if (!atPoint[i]) return;
    const outcome = inferCut(session, { ...point, turn: atPoint[i]!.turn }, i + 1, cut, (value) =>
      base({ recordedCompactionEntryId: point.entryId, manual: point.manual, parameters: { ...given.parameters, [cut.parameter]: value } }, point.turn),
    );
    if (outcome.ok) bounds.push(...outcome.interval.bounds);
    else failures.push(outcome.reason);
  });
  if (!points.some((_, i) => atPoint[i] !== null)) return null;
  const spec = policy.parameters.find((p) => p.name === cut.parameter);
  const joined = intersect(bounds);
  const conflicts = [...failures];
  if (joined.conflict) conflicts.push(conflictText(cut.parameter, joined.conflict));
  const setting: InferredSetting = {
    setting: cut.parameter,
    target: "parameter",
    label: spec?.label ?? cut.parameter,
    ruleId: cut.ruleId,
    from: "cut",
    min: failures.length === 0 ? (joined.min ?? 0) : joined.min,
    max: joined.max,
    bounds: joined.deciding,
    conflict: conflicts.length > 0 ? conflicts.join("; ") : null,
    value: null,
    assumes: cut.note ?? null,
  };
  setting.value = setting.conflict ? null : chooseValue(setting.min, setting.max, policyDefault(policy, setting, null));
  return setting;
}

/** Two bounds that leave no value between them, in words: which compaction or turn needs what. */
function conflictText(setting: string, conflict: SettingBound[]): string {
  return `${setting}: ${where(conflict[0]!)} needs ≥ ${conflict[0]!.value}, ${where(conflict[1]!)} needs ≤ ${conflict[1]!.value}`;
}

function inferTriggerSetting(
  session: Session,
  policy: CompactionPolicy,
  observations: TriggerObservation[],
  given: InferOptions,
  assumedManual: Set<number>,
  notes: string[],
): InferredSetting | null {
  const first = observations[0]?.setting;
  const byGiven = first && (first.target === "parameter" ? given.parameters?.[first.setting] !== undefined : given.limits?.[first.setting as keyof LimitOverrides] !== undefined);
  const sameSetting = observations.filter((o) => first && o.setting.setting === first.setting);
  const boundOf = new Map<TriggerObservation, SettingBound | null>();
  for (const o of sameSetting) {
    const bound = triggerBound(o);
    if (bound !== "unreachable") boundOf.set(o, bound);
    else if (o.compaction !== null) {
      assumedManual.add(o.compaction);
      notes.push(`compaction ${o.compaction} (after turn ${o.turn}) fired at ${o.result.trigger.left} tokens, below every threshold a ${o.setting.label} the agent accepts gives: taken as manual (the file does not say)`);
    } else notes.push(`turn ${o.turn}: no ${o.setting.label} the agent accepts keeps ${o.result.trigger.left} tokens below the threshold: the turn does not bound it`);
  }
  // Where the records do not say which compactions were manual, one that fired below the usage
  // of a turn where none fired cannot have been automatic: it is taken as manual.
  if (findAgent(session.formatId)?.recorded?.recordsManual === false) {
    const quiet = intersect([...boundOf].filter(([o, b]) => o.compaction === null && b !== null).map(([, b]) => b!));
    for (const [o, b] of boundOf) {
      if (o.compaction === null || b === null) continue;
      const below = b.side === "max" ? quiet.min !== null && b.value < quiet.min : quiet.max !== null && b.value > quiet.max;
      if (!below) continue;
      boundOf.delete(o);
      assumedManual.add(o.compaction);
      notes.push(`compaction ${o.compaction} (after turn ${o.turn}) fired below the usage of a turn where none fired: taken as manual (the file does not say)`);
    }
  }
  const automatic = [...boundOf.keys()].some((o) => o.compaction !== null);
  if (first && !byGiven && !automatic) notes.push(`no automatic compaction is recorded: ${first.setting} is bounded only by the turns where none fired`);
  if (!first || byGiven) return null;
  const bounds = [...boundOf.values()].filter((b): b is SettingBound => b !== null);
  const joined = intersect(bounds);
  const resolvedLimit = first.target === "limit" ? ((observations[0]!.result.limits as unknown as Record<string, number>)[first.setting] ?? null) : null;
  const setting: InferredSetting = {
    setting: first.setting,
    target: first.target,
    label: first.label,
    ruleId: first.ruleId,
    from: "trigger",
    min: joined.min,
    max: joined.max,
    bounds: joined.deciding,
    conflict: joined.conflict ? conflictText(first.setting, joined.conflict) : null,
    value: null,
    assumes: first.assumes,
  };
  setting.value = setting.conflict ? null : chooseValue(setting.min, setting.max, policyDefault(policy, setting, resolvedLimit), automatic);
  return setting;
}

function assemble(
  session: Session,
  policy: CompactionPolicy,
  settings: InferredSetting[],
  notes: string[],
  points: ReturnType<typeof recordedCompactionPoints>,
  atPoint: (SimulationResult | null)[],
  given: InferOptions,
  assumedManual: ReadonlySet<number>,
  progress: SettingsInference["progress"],
): SettingsInference {
  const parameters: PolicyParameters = {};
  const limits: LimitOverrides = {};
  for (const setting of settings) {
    if (setting.value === null) continue;
    if (setting.target === "parameter") parameters[setting.setting] = setting.value;
    else (limits as Record<string, number>)[setting.setting] = setting.value;
  }
  const conflicts = settings.flatMap((s) => (s.conflict ? [s.conflict] : []));
  const recordsManual = findAgent(session.formatId)?.recorded?.recordsManual !== false;
  const compactions = points.map((point, i) => ({
    index: i + 1,
    entryId: point.entryId,
    turn: atPoint[i]?.turn ?? point.turn,
    manual: point.manual ? ("recorded" as const) : (given.manualCompactions ?? []).includes(i + 1) ? ("given" as const) : assumedManual.has(i + 1) ? ("assumed" as const) : null,
  }));
  return { policyId: policy.id, settings, consistent: conflicts.length === 0, conflicts, notes, parameters, limits, recordsManual, compactions, progress };
}
