// Inputs of the Simulate panel: policy, the before/after switches (hermes role split, opencode
// spiral brake and compaction mode), the policy's parameters with their defaults and "inferred" badges, the summary
// source (CP-0-3), the focus topic, the limits (CP-0-1) and the model-resolution choice.
import { ruleTooltip } from "../../ui/ruleIds";
import type { PolicyId } from "../../core/session/simulate/index";
import { resetParameters, setParameter, setPolicy, setSimulator, useSimulatorStore } from "./simulatorState";
import type { ModelWindowChoice, PolicyParameterInfo, SummaryChoice } from "./protocol";
import { InferredBadge } from "../../ui/InferredBadge";
import { WhyTip } from "../../ui/WhyTip";

/** Parameters shown as the before/after switches instead of in the list. */
const SWITCHES = new Set(["roleSplit", "spiralBrake", "compactionMode"]);

function NumberField({ label, value, testId, title, onChange, placeholder }: { label: string; value: string; testId: string; title: string; onChange(value: string): void; placeholder?: string }) {
  return (
    <label className="sim-field" title={title}>
      <span className="field-label">{label}</span>
      <input type="number" min={0} inputMode="numeric" data-testid={testId} value={value} placeholder={placeholder ?? "from session"} onChange={(event) => onChange(event.target.value)} />
    </label>
  );
}

function defaultText(value: PolicyParameterInfo["default"]): string {
  return value === null ? "unset" : String(value);
}

function ParameterInput({ spec }: { spec: PolicyParameterInfo }) {
  const value = useSimulatorStore((state) => state.parameters[state.policyId]?.[spec.name]);
  const current = value === undefined ? spec.default : value;
  const changed = value !== undefined && value !== spec.default;
  const testId = `simulator-param-${spec.name}`;
  let input: React.ReactNode;
  if (spec.type === "boolean") {
    input = <input type="checkbox" data-testid={testId} checked={current === true} onChange={(event) => setParameter(spec.name, event.target.checked)} />;
  } else if (spec.type === "enum") {
    input = (
      <select data-testid={testId} value={String(current)} onChange={(event) => setParameter(spec.name, event.target.value)}>
        {(spec.choices ?? []).map((choice) => (
          <option key={choice} value={choice}>
            {choice}
          </option>
        ))}
      </select>
    );
  } else {
    input = (
      <input
        type={spec.type === "number" ? "number" : "text"}
        data-testid={testId}
        value={current === null ? "" : String(current)}
        placeholder={defaultText(spec.default)}
        onChange={(event) => {
          const text = event.target.value;
          if (text.trim() === "") setParameter(spec.name, spec.default === null ? null : spec.default);
          else if (spec.type === "number") {
            const parsed = Number(text);
            if (Number.isFinite(parsed)) setParameter(spec.name, parsed);
          } else setParameter(spec.name, text);
        }}
      />
    );
  }
  return (
    <div className={`sim-param${changed ? " changed" : ""}`} title={`${spec.description} (${spec.ruleId})`}>
      <span className="sim-param-label">{spec.label}</span>
      {input}
      <span className="muted sim-param-default">default {defaultText(spec.default)}</span>
      <WhyTip rule={spec.ruleId} />
      {spec.inferred && <InferredBadge rule={spec.inferred} />}
    </div>
  );
}

export function SimulatorControls() {
  const state = useSimulatorStore();
  const policy = state.policies?.find((p) => p.id === state.policyId) ?? null;
  const parameters = state.parameters[state.policyId] ?? {};
  const roleSplit = policy?.parameters.find((p) => p.name === "roleSplit");
  const spiralBrake = policy?.parameters.find((p) => p.name === "spiralBrake");
  const compactionMode = policy?.parameters.find((p) => p.name === "compactionMode");
  const listed = (policy?.parameters ?? []).filter((p) => !SWITCHES.has(p.name));
  const reserveName = policy?.reserveParameter ?? null;
  return (
    <div className="sim-controls" data-testid="simulator-controls">
      <div className="sim-row">
        <label className="sim-field">
          <span className="field-label">Policy</span>
          <select data-testid="simulator-policy" value={state.policyId} onChange={(event) => setPolicy(event.target.value as PolicyId)}>
            {(state.policies ?? [{ id: state.policyId, label: state.policyId, supported: true }]).map((p) => (
              <option key={p.id} value={p.id} title={p.supported ? undefined : (p as { unsupported?: string | null }).unsupported ?? undefined}>
                {p.id}
                {p.supported ? "" : " (does not apply to this session)"}
              </option>
            ))}
          </select>
        </label>
        {roleSplit && (
          <label className="sim-field" title={`${roleSplit.description} (${roleSplit.ruleId})`}>
            <span className="field-label">Role split</span>
            <select data-testid="simulator-role-split" value={String(parameters.roleSplit ?? roleSplit.default)} onChange={(event) => setParameter("roleSplit", event.target.value)}>
              <option value="off">off (before the PR)</option>
              <option value="pr">pr (as written)</option>
              <option value="fixed">on (fixed)</option>
            </select>
          </label>
        )}
        {spiralBrake && (
          <label className="sim-field" title={`${spiralBrake.description} (${spiralBrake.ruleId})`}>
            <input
              type="checkbox"
              data-testid="simulator-spiral-brake"
              checked={(parameters.spiralBrake ?? spiralBrake.default) === true}
              onChange={(event) => setParameter("spiralBrake", event.target.checked)}
            />
            <span>Spiral brake (PR #11)</span>
          </label>
        )}
        {compactionMode && (
          <label className="sim-field" title={`${compactionMode.description} (${compactionMode.ruleId})`}>
            <span className="field-label">Compaction</span>
            <select data-testid="simulator-compaction-mode" value={String(parameters.compactionMode ?? compactionMode.default)} onChange={(event) => setParameter("compactionMode", event.target.value)}>
              <option value="live">live (what opencode runs)</option>
              <option value="chunked">chunked (fork&apos;s executor, not on the live path)</option>
            </select>
          </label>
        )}
        <label className="sim-field" title={`Manual compaction: the trigger is skipped, as when the user runs the agent's compact command.\n${ruleTooltip(["PI-K7"])}`}>
          <input type="checkbox" data-testid="simulator-manual" checked={state.manual} onChange={(event) => setSimulator({ manual: event.target.checked })} />
          <span>manual</span>
        </label>
      </div>
      {state.policiesError && <div className="error-text">{state.policiesError}</div>}

      <div className="sim-group-title">
        Limits
        <WhyTip rule="CP-0-1" text="The model's context window and output limits the trigger uses; empty fields come from the session's model." />
      </div>
      <div className="sim-row">
        <NumberField label="Context window" testId="simulator-context-window" value={state.contextWindow} title="Overrides the model's context window" onChange={(contextWindow) => setSimulator({ contextWindow })} />
        <NumberField
          label="Reserve"
          testId="simulator-reserve"
          value={state.reserve}
          placeholder={reserveName ? "policy default" : "n/a"}
          title={reserveName ? `Sets the policy parameter ${reserveName}` : "This policy has no reserve parameter"}
          onChange={(reserve) => setSimulator({ reserve })}
        />
        <NumberField label="Output" testId="simulator-max-output" value={state.maxOutputTokens} title="Overrides the model's output limit (max output tokens)" onChange={(maxOutputTokens) => setSimulator({ maxOutputTokens })} />
        <NumberField label="Input limit" testId="simulator-input-limit" value={state.inputLimit} title="A separate input limit (opencode limit.input)" onChange={(inputLimit) => setSimulator({ inputLimit })} />
      </div>

      <div className="sim-group-title">Model resolution</div>
      <div className="sim-row">
        <label className="sim-field" title="Which model's context window the simulation uses (an entered context window wins)">
          <span className="field-label">Window of</span>
          <select data-testid="simulator-model-window" value={state.modelWindow} onChange={(event) => setSimulator({ modelWindow: event.target.value as ModelWindowChoice })}>
            <option value="recorded">the recorded model</option>
            <option value="agent-default">the agent default</option>
            <option value="provider-default">the provider default</option>
            {policy?.modelChoice && <option value="precedence">{policy.label} precedence (prompt without a model)</option>}
          </select>
        </label>
        <NumberField label="Agent default window" testId="simulator-agent-window" value={state.agentDefaultWindow} placeholder="none" title="Context window of the agent's configured default model" onChange={(agentDefaultWindow) => setSimulator({ agentDefaultWindow })} />
        <NumberField label="Provider default window" testId="simulator-provider-window" value={state.providerDefaultWindow} placeholder="none" title="Context window of the provider's default model" onChange={(providerDefaultWindow) => setSimulator({ providerDefaultWindow })} />
      </div>

      <div className="sim-group-title">
        Summary and focus
        <WhyTip rule="CP-0-3" text="The simulator never calls a model: the summary is the recorded one, your text, or a placeholder of N tokens." />
      </div>
      <div className="sim-row">
        <label className="sim-field">
          <span className="field-label">Summary</span>
          <select data-testid="simulator-summary-source" value={state.summaryKind} onChange={(event) => setSimulator({ summaryKind: event.target.value as SummaryChoice["kind"] })}>
            <option value="default">recorded, else placeholder</option>
            <option value="text">typed or pasted text</option>
            <option value="placeholder">placeholder of N tokens</option>
          </select>
        </label>
        <NumberField label="Placeholder tokens" testId="simulator-summary-tokens" value={state.summaryTokens} placeholder="default size" title="Size of the generated placeholder summary (chars/4 tokens)" onChange={(summaryTokens) => setSimulator({ summaryTokens, summaryKind: "placeholder" })} />
        <label className="sim-field sim-grow" title="A user-supplied focus topic / custom instructions (/compact <text>)">
          <span className="field-label">Focus</span>
          <input type="text" data-testid="simulator-focus" value={state.focus} placeholder="none" onChange={(event) => setSimulator({ focus: event.target.value })} />
        </label>
      </div>
      <textarea
        className="sim-summary-text"
        data-testid="simulator-summary-text"
        rows={3}
        value={state.summaryText}
        placeholder="Type or paste the summary the model would write (used when the source is “typed or pasted text”)"
        onChange={(event) => setSimulator({ summaryText: event.target.value, summaryKind: "text" })}
      />

      {listed.length > 0 && (
        <details className="sim-params" data-testid="simulator-parameters">
          <summary>
            Parameters of {policy?.label ?? state.policyId} ({listed.length}){Object.keys(parameters).length > 0 ? " · changed" : ""}
          </summary>
          {listed.map((spec) => (
            <ParameterInput key={`${state.policyId}:${spec.name}`} spec={spec} />
          ))}
          <button type="button" className="btn small" onClick={resetParameters}>
            Reset to defaults
          </button>
        </details>
      )}
    </div>
  );
}
