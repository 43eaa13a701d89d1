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

/** The value used by default: the policy's own when it fits, else the nearest bound. */
function chooseValue(min: number | null, max: number | null, fallback: number | null): number | null {
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

export function inferSettings(session: Session, options: PipelineOptions, policyId: PolicyId, given: InferOptions = {}): SettingsInference {
  const policy = getPolicy(policyId);
  const inference = policy.inference;
  const notes: string[] = [];
  const settings: InferredSetting[] = [];
  const points = recordedCompactionPoints(session, options);
  /** Compactions the inference itself took as manual (files that do not record it). */
  const assumedManual = new Set<number>();
  const base = (extra: Partial<SimulationInput>, turn: number): SimulationResult =>
    simulateCompaction({ session, options, turn, policyId: policy.id, parameters: given.parameters, limits: given.limits, followingTurns: 0, api: given.api ?? null, ...extra });

  // Each recorded compaction once with the given settings: its real turn and trigger.
  const atPoint: (SimulationResult | null)[] = points.map((point, i) => {
    try {
      return base({ recordedCompactionEntryId: point.entryId, manual: point.manual }, point.turn);
    } catch (error) {
      if (!(error instanceof UnreplayablePointError)) throw error;
      notes.push(`compaction ${i + 1} (${point.entryId}) cannot be re-run: ${error.message}`);
      return null;
    }
  });

  // (1) The cut: the keep-recent budget, from every recorded compaction.
  const cut = inference?.cut;
  if (cut && given.parameters?.[cut.parameter] === undefined) {
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
    const spec = policy.parameters.find((p) => p.name === cut.parameter);
    const joined = intersect(bounds);
    const conflicts = [...failures];
    if (joined.conflict) conflicts.push(`${cut.parameter}: ${where(joined.conflict[0]!)} needs ≥ ${joined.conflict[0]!.value}, ${where(joined.conflict[1]!)} needs ≤ ${joined.conflict[1]!.value}`);
    if (points.some((_, i) => atPoint[i] !== null)) {
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
      settings.push(setting);
    }
  }

  // (2) The trigger: fired at every automatic compaction, did not fire after the other turns.
  if (inference?.trigger) {
    const observations: TriggerObservation[] = [];
    const compactedTurns = new Set<number>();
    points.forEach((point, i) => {
      const result = atPoint[i];
      if (!result) return;
      compactedTurns.add(result.turn);
      const setting = inference.trigger!(result);
      const manual = point.manual || (given.manualCompactions ?? []).includes(i + 1);
      if (manual) notes.push(`compaction ${i + 1} is manual: it does not bound the trigger`);
      if (!manual && setting) observations.push({ turn: result.turn, compaction: i + 1, entryId: point.entryId, result, setting });
    });
    const total = countTurns(session, options);
    // The last turn is left out: an agent that checks before the next prompt never checked after it.
    for (let turn = 1; turn < total; turn++) {
      if (compactedTurns.has(turn)) continue;
      let result: SimulationResult;
      try {
        result = base({}, turn);
      } catch {
        continue;
      }
      const setting = inference.trigger(result);
      if (setting) observations.push({ turn, compaction: null, entryId: null, result, setting });
    }
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
      }
      else notes.push(`turn ${o.turn}: no ${o.setting.label} the agent accepts keeps ${o.result.trigger.left} tokens below the threshold: the turn does not bound it`);
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
    if (first && !byGiven) {
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
        conflict: joined.conflict ? `${first.setting}: ${where(joined.conflict[0]!)} needs ≥ ${joined.conflict[0]!.value}, ${where(joined.conflict[1]!)} needs ≤ ${joined.conflict[1]!.value}` : null,
        value: null,
        assumes: first.assumes,
      };
      setting.value = setting.conflict ? null : chooseValue(setting.min, setting.max, policyDefault(policy, setting, resolvedLimit));
      settings.push(setting);
    }
  }

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
  return { policyId: policy.id, settings, consistent: conflicts.length === 0, conflicts, notes, parameters, limits, recordsManual, compactions };
}
