// The trigger setting the recorded usage pins down. At an automatic compaction the trigger fired,
// so its threshold was at most (">": one below; ">=": equal to) the usage the policy compared; at
// every other turn the agent checked it did not fire, so the threshold was at least that usage
// (">": equal; ">=": one above). The policy maps a threshold to its setting at that turn (pi:
// reserveTokens = window − threshold); each turn gives one bound, the tightest ones win.
import type { SimulationResult, TriggerSetting } from "../../../simulate/types";
import type { SettingBound } from "./types";

export interface TriggerObservation {
  turn: number;
  /** Set for an automatic recorded compaction (it fired); null for a turn where none fired. */
  compaction: number | null;
  entryId: string | null;
  result: SimulationResult;
  setting: TriggerSetting;
}

/**
 * The setting bound one observation gives, or null when its trigger was not evaluated;
 * "unreachable" when no setting the agent accepts puts the threshold there (a compaction that fired
 * below every threshold the agent can compute was not automatic).
 */
export function triggerBound(observation: TriggerObservation): SettingBound | null | "unreachable" {
  const { result, setting, compaction } = observation;
  const trigger = result.trigger;
  if (!trigger.evaluated) return null;
  const left = trigger.left;
  const fired = compaction !== null;
  const strict = trigger.operator === ">";
  // Threshold bound (integer thresholds): fired → T ≤ left − 1 (">") or ≤ left (">="); not
  // fired → T ≥ left (">") or ≥ left + 1 (">=").
  const threshold = fired ? (strict ? left - 1 : left) : strict ? left : left + 1;
  const thresholdIsMax = fired;
  // A decreasing mapping turns the threshold's max into the setting's min.
  const side: "min" | "max" = thresholdIsMax !== setting.decreasing ? "max" : "min";
  let value: number;
  if (setting.bound) {
    const exact = setting.bound(threshold, side);
    if (exact === null) return "unreachable";
    value = exact;
  } else {
    const raw = setting.fromThreshold(threshold);
    value = side === "min" ? Math.ceil(raw - 1e-9) : Math.floor(raw + 1e-9);
  }
  const op = trigger.operator;
  const reason = fired
    ? `compaction ${compaction} fired after turn ${observation.turn}: ${left} ${op} threshold, so threshold ≤ ${threshold}`
    : `no compaction after turn ${observation.turn}: not ${left} ${op} threshold, so threshold ≥ ${threshold}`;
  return { side, value, compaction, entryId: observation.entryId, turn: observation.turn, reason: `${reason} → ${setting.setting} ${side === "min" ? "≥" : "≤"} ${value}` };
}
