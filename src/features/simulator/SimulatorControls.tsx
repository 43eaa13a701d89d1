// Inputs of the Simulate panel: policy, the switches a policy shows beside it (the parameters that
// pick one of its variants, as the policy words them), the policy's other parameters with their
// defaults and "inferred" badges, the summary source (CP-0-3), the focus topic, the limits (CP-0-1)
// and the model-resolution choice. Nothing here knows a policy: each parameter says how it is shown.
import { ruleTooltip } from "../../ui/ruleIds";
import type { PolicyId } from "../../core/session/simulate/index";
import { resetParameters, setParameter, setPolicy, setSimulator, useSimulatorStore } from "./simulatorState";
import type { ModelWindowChoice, PolicyParameterInfo, SummaryChoice } from "./protocol";
import { InferredBadge } from "../../ui/InferredBadge";
import { WhyTip } from "../../ui/WhyTip";
import { inWords } from "../../ui/words";

function NumberField({ label, value, testId, title, onChange, placeholder }: { label: string; value: string; testId: string; title: string; onChange(value: string): void; placeholder?: string }) {
  return (
    <label className="sim-field" title={title}>
      <span className="field-label">{label}</span>
      <input type="number" min={0} inputMode="numeric" data-testid={testId} value={value} placeholder={placeholder ?? "from session"} onChange={(event) => onChange(event.target.value)} />
    </label>
  );
}

function defaultText(value: PolicyParameterInfo["default"]): string {
  if (value === null) return "unset";
  if (typeof value === "number") return value.toLocaleString("en-US", { maximumFractionDigits: 4 });
  if (typeof value === "boolean") return value ? "on" : "off";
  return inWords(value);
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
    <div className={`sim-param${changed ? " changed" : ""}`} title={`${spec.description}\n${ruleTooltip([spec.ruleId])}`}>
      <span className="sim-param-label" data-name={spec.name}>
        {inWords(spec.label)}
      </span>
      {input}
      <span className="muted sim-param-default">default {defaultText(spec.default)}</span>
      <WhyTip rule={spec.ruleId} />
      {spec.inferred && <InferredBadge rule={spec.inferred} />}
    </div>
  );
}

/** A switch's test id: the parameter's name in kebab case ("roleSplit" → "simulator-role-split"). */
function switchTestId(name: string): string {
  return `simulator-${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
}

/** A parameter the policy shows beside its choice: a checkbox for a boolean, else a select of the choices it words. */
function ParameterSwitch({ spec, value }: { spec: PolicyParameterInfo; value: PolicyParameterInfo["default"] | undefined }) {
  const current = value ?? spec.default;
  const label = inWords(spec.presentation?.label ?? spec.label);
  const title = `${spec.description}\n${ruleTooltip([spec.ruleId])}`;
  const testId = switchTestId(spec.name);
  if (spec.type === "boolean") {
    return (
      <label className="sim-field" title={title}>
        <input type="checkbox" data-testid={testId} checked={current === true} onChange={(event) => setParameter(spec.name, event.target.checked)} />
        <span>{label}</span>
      </label>
    );
  }
  const choices = spec.presentation?.choices ?? (spec.choices ?? []).map((choice) => ({ value: choice, label: choice }));
  return (
    <label className="sim-field" title={title}>
      <span className="field-label">{label}</span>
      <select data-testid={testId} value={String(current)} onChange={(event) => setParameter(spec.name, event.target.value)}>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {inWords(choice.label)}
          </option>
        ))}
      </select>
    </label>
  );
}

export function SimulatorControls() {
  const state = useSimulatorStore();
  const policy = state.policies?.find((p) => p.id === state.policyId) ?? null;
  const parameters = state.parameters[state.policyId] ?? {};
  const switches = (policy?.parameters ?? []).filter((p) => p.presentation !== undefined);
  const listed = (policy?.parameters ?? []).filter((p) => p.presentation === undefined);
  const reserveName = policy?.reserveParameter ?? null;
  return (
    <div className="sim-controls" data-testid="simulator-controls">
      <div className="sim-row">
        <label className="sim-field">
          <span className="field-label">Policy</span>
          <select data-testid="simulator-policy" value={state.policyId} onChange={(event) => setPolicy(event.target.value as PolicyId)}>
            {(state.policies ?? [{ id: state.policyId, label: state.policyId, supported: true }]).map((p) => (
              <option key={p.id} value={p.id} title={p.supported ? undefined : (p as { unsupported?: string | null }).unsupported ?? undefined}>
                {inWords(p.label)}
                {p.supported ? "" : " (does not apply to this session)"}
              </option>
            ))}
          </select>
        </label>
        {switches.map((spec) => (
          <ParameterSwitch key={`${state.policyId}:${spec.name}`} spec={spec} value={parameters[spec.name]} />
        ))}
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
          title={reserveName ? `Sets the policy's parameter "${inWords(policy?.parameters.find((p) => p.name === reserveName)?.label ?? reserveName)}"` : "This policy has no reserve parameter"}
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
            {policy?.modelChoice && <option value="precedence">{inWords(policy.label)} precedence (prompt without a model)</option>}
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
            Parameters of {inWords(policy?.label ?? state.policyId)} ({listed.length}){Object.keys(parameters).length > 0 ? " · changed" : ""}
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
