// What settings inference returns: for each setting a session's recorded compactions bound, the
// interval of values consistent with every one of them, which compaction (or uncompacted turn)
// gives each bound, and the value the simulator uses by default. Plain data (crosses the worker
// boundary, printed by the CLI).
import type { LimitOverrides, PolicyId, PolicyParameters, SettingTarget } from "../../../simulate/types";

/** One bound of a setting and where it comes from. */
export interface SettingBound {
  side: "min" | "max";
  value: number;
  /** 1-based index of the recorded compaction that gives it, or null for a turn where none fired. */
  compaction: number | null;
  entryId: string | null;
  turn: number;
  /** e.g. "compaction 1 fired: 4641 > threshold" or "keepRecentTokens 1711 cuts later than recorded". */
  reason: string;
}

export interface InferredSetting {
  setting: string;
  target: SettingTarget;
  label: string;
  ruleId: string;
  /** "cut" (the recorded cut point) or "trigger" (the usage at which it fired, or did not). */
  from: "cut" | "trigger";
  /** Inclusive interval; null = not bounded on that side. */
  min: number | null;
  max: number | null;
  /** The bounds that decide min and max. */
  bounds: SettingBound[];
  /** No value fits every compaction: which ones disagree. */
  conflict: string | null;
  /** The value the simulator uses by default (the policy default when inside, else the nearest bound). */
  value: number | null;
  assumes: string | null;
}

export interface SettingsInference {
  policyId: PolicyId;
  settings: InferredSetting[];
  consistent: boolean;
  /** One message per disagreement. */
  conflicts: string[];
  /** Compactions or turns that could not be used, with the reason. */
  notes: string[];
  /** The chosen values, ready for SimulationInput. */
  parameters: PolicyParameters;
  limits: LimitOverrides;
  /** False when the files do not say which compactions were manual (pi, Codex, hermes). */
  recordsManual: boolean;
  /**
   * Every recorded compaction and whether it counted as manual: "recorded" (the file says),
   * "given" (the user said), "assumed" (it fired where an automatic one could not), null (automatic).
   */
  compactions: { index: number; entryId: string; turn: number; manual: "recorded" | "given" | "assumed" | null }[];
  /**
   * How far the inference got: the turns without a compaction checked so far, of all of them. An
   * incomplete inference has every recorded compaction in it; its trigger bounds narrow as more
   * turns are checked.
   */
  progress: { checked: number; total: number; complete: boolean };
}
