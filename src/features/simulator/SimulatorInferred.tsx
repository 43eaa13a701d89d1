// "Settings consistent with this session": the intervals settings inference found from the
// session's recorded compactions (src/core/session/simulate/infer), with the compactions (or uncompacted
// turns) that bound each one, the value the simulation uses, and a switch back to the policy
// defaults. The user's own parameters and limits always win over these. Where the file does not
// record which compactions were manual (pi, Codex, hermes), each one is listed with what the
// inference assumed, and the user can mark it manual (carried in share links). Text only.
import type { InferredSetting } from "../../core/session/simulate/index";
import { ruleTooltip } from "../../ui/ruleIds";
import { inWords } from "../../ui/words";
import { setCompactionManual, setUseInferred, useSimulatorStore } from "./simulatorState";

// Four decimals: inferred fractions (Gemini CLI's compression threshold) are bounded to 0.0001.
const fmt = (value: number) => value.toLocaleString("en-US", { maximumFractionDigits: 4 });

function intervalText(setting: InferredSetting): string {
  if (setting.min !== null && setting.max !== null) return `${fmt(setting.min)}–${fmt(setting.max)}`;
  if (setting.min !== null) return `≥ ${fmt(setting.min)}`;
  if (setting.max !== null) return `≤ ${fmt(setting.max)}`;
  return "any value";
}

const MANUAL_TEXT = {
  recorded: "manual (the file says)",
  given: "manual (you marked it)",
  assumed: "taken as manual: it fired where no automatic trigger setting fits",
} as const;

function boundText(setting: InferredSetting): string {
  return setting.bounds.map((b) => (b.compaction !== null ? `compaction ${b.compaction}` : `turn ${b.turn}`)).join(", ");
}

/** The tooltip of a setting: where its bounds come from, what it assumes, and the rule behind it. */
function whyText(setting: InferredSetting): string {
  return [...setting.bounds.map((b) => inWords(b.reason)), setting.assumes ? inWords(setting.assumes) : "", `${ruleTooltip([setting.ruleId])} How settings are inferred: docs/compaction-simulator.md, "Settings inference".`].filter(Boolean).join("\n");
}

/** Compactions and turns bounding a setting, once each ("compaction 1, turn 7"). */
function uniqueBounds(text: string): string {
  return [...new Set(text.split(", "))].join(", ");
}

/** A conflict as the inference words it ("x: compaction 1 (after turn 3) needs ≥ 5, turn 9 (no compaction) needs ≤ 4"), numbers grouped. */
function conflictText(conflict: string): string {
  const withoutName = conflict.replace(/^[A-Za-z_]+: /, "").replace(/; [A-Za-z_]+: /g, "; ");
  const grouped = withoutName.replace(/(≥|≤) (\d{4,})/g, (_m, op: string, n: string) => `${op} ${fmt(Number(n))}`);
  return `no value fits every compaction — ${grouped}`;
}

export function SimulatorInferred() {
  const inference = useSimulatorStore((state) => state.inference);
  const useInferred = useSimulatorStore((state) => state.useInferred);
  const shared = useSimulatorStore((state) => (state.sharedInferred?.policyId === state.policyId ? state.sharedInferred : null));
  // The user's marks show at once; the labels follow when the new inference arrives.
  const marked = useSimulatorStore((state) => state.manualCompactions);
  const result = inference.result;
  return (
    <div className="sim-inferred" data-testid="simulator-inferred-settings" data-status={inference.status}>
      <div className="sim-group-title">
        Settings consistent with this session <span className="badge badge-inferred">inferred</span>
      </div>
      <label className="sim-field" title="The settings are not in the session file; each recorded compaction bounds them. Off: the policy defaults.">
        <input type="checkbox" data-testid="simulator-use-inferred" checked={useInferred} onChange={(event) => setUseInferred(event.target.checked)} />
        <span>use them for the simulation and replay (your own values win)</span>
      </label>
      {shared && useInferred && (
        <div className="muted" data-testid="simulator-inferred-shared">
          From the share link: {Object.entries({ ...shared.parameters, ...shared.limits }).map(([k, v]) => `${inWords(k)} ${String(v)}`).join(", ") || "none"}
        </div>
      )}
      {inference.status === "running" && (
        <div className="muted" data-testid="simulator-inferred-progress">
          {result && result.progress.total > 0
            ? `narrowing: ${fmt(result.progress.checked)} of ${fmt(result.progress.total)} turns without a compaction checked…`
            : "inferring from the recorded compactions…"}
        </div>
      )}
      {inference.status === "error" && <div className="error-text">{inference.error}</div>}
      {result && result.settings.length === 0 && inference.status !== "running" && <div className="muted">No recorded compaction bounds this policy's settings.</div>}
      {result && result.settings.length > 0 && (
        <ul className="sim-inferred-list">
          {result.settings.map((setting) => (
            <li key={setting.setting} data-testid={`simulator-inferred-${setting.setting}`} data-conflict={setting.conflict !== null} title={whyText(setting)}>
              <strong>{inWords(setting.label)}</strong>{" "}
              {setting.conflict ? (
                <span className="warning-text" data-testid="simulator-inferred-conflict">
                  not inferred: {conflictText(setting.conflict)}. The policy default is used; enter a value to choose one.
                </span>
              ) : (
                <>
                  {intervalText(setting)}
                  {setting.value !== null && <span className="muted"> (uses {fmt(setting.value)})</span>}
                  {setting.bounds.length > 0 && <span className="muted"> — bound by {uniqueBounds(boundText(setting))}</span>}
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {result && !result.recordsManual && result.compactions.length > 0 && (
        <div data-testid="simulator-manual-compactions">
          <div className="muted">This file does not record which compactions were manual: the inference assumed the following. Mark a manual one so it does not bound the trigger.</div>
          {result.compactions.map((compaction) => (
            <label key={compaction.index} className="sim-field" data-testid={`simulator-manual-${compaction.index}`} data-manual={compaction.manual ?? "automatic"}>
              <input type="checkbox" checked={compaction.manual === "recorded" || compaction.manual === "assumed" || marked.includes(compaction.index)} disabled={compaction.manual === "assumed" || compaction.manual === "recorded"} onChange={(event) => setCompactionManual(compaction.index, event.target.checked)} />
              <span>
                compaction {compaction.index} (after turn {compaction.turn}): {compaction.manual === null ? "automatic (assumed)" : MANUAL_TEXT[compaction.manual]}
              </span>
            </label>
          ))}
        </div>
      )}
      {result?.notes.map((note) => (
        <div key={note} className="muted">
          {inWords(note)}
        </div>
      ))}
    </div>
  );
}
