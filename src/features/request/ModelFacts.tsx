// Details panel: what Contextscope assumes about the turn's model (context window, output cap,
// reasoning, wire-shape compat flags) and where each fact comes from, in words (our model list,
// a default for a model not in it, a captured request, the user's edit), with a small form to edit them. Edits are written to
// PipelineOptions.modelOverrides for "provider/modelId" (persisted), and the request is rebuilt.
import { useState } from "react";
import type { ModelInfo } from "../../core/model";
import { CAPTURE_MODEL_PROVIDER, DATASET_WINDOW_SOURCE_PREFIX, modelKey, resolveModel } from "../../core/models/catalogue";
import { turnReasoning } from "../../core/models/reasoning";
import { captureModelOverrides } from "../../core/captures/modelFacts";
import { setModelOverride } from "../../page/options";
import { useAppStore } from "../../page/store";
import { formatInt } from "../../ui/format";

type EditableKey = "contextWindow" | "maxTokens" | "reasoning" | "supportsDeveloperRole" | "supportsReasoningEffort" | "supportsImages";

const FIELDS: { key: EditableKey; label: string; kind: "number" | "flag"; testId: string }[] = [
  { key: "contextWindow", label: "context window", kind: "number", testId: "model-edit-context-window" },
  { key: "maxTokens", label: "max output tokens", kind: "number", testId: "model-edit-max-tokens" },
  { key: "reasoning", label: "reasoning", kind: "flag", testId: "model-edit-reasoning" },
  { key: "supportsDeveloperRole", label: "developer role", kind: "flag", testId: "model-edit-developer-role" },
  { key: "supportsReasoningEffort", label: "reasoning effort", kind: "flag", testId: "model-edit-reasoning-effort" },
  { key: "supportsImages", label: "images", kind: "flag", testId: "model-edit-images" },
];

/** Where a fact came from, in words, and what that means (for the tooltip). */
function sourceWords(source: string): { label: string; title: string } {
  if (source === "user") return { label: "your edit", title: "You edited this fact (kept in this browser)." };
  if (source === "catalogue-default")
    return { label: "default: model not in our list", title: "This model is not in Contextscope's model list: generic defaults are used. Edit them if you know the model." };
  if (source.startsWith(DATASET_WINDOW_SOURCE_PREFIX))
    return {
      label: "context window from the price dataset; the rest defaults",
      title: `This model is not in Contextscope's model list. Its context window is the one the price dataset records (${source}); the other facts are generic defaults. Edit them if you know the model.`,
    };
  if (source === "header") return { label: "captured request", title: "Taken from the captured request you attached." };
  if (source.startsWith("catalogue (unverified)"))
    return { label: "our model list", title: "Contextscope's built-in model list, from the provider's public model pages; not checked against this session." };
  if (source.startsWith("catalogue")) return { label: "our model list (sourced)", title: source };
  return { label: source, title: source };
}

function factValue(model: ModelInfo, key: EditableKey): number | boolean {
  const value = model[key];
  return typeof value === "number" ? value : value === true;
}

function show(value: number | boolean): string {
  return typeof value === "number" ? formatInt(value) : value ? "yes" : "no";
}

function EditForm({ model, base, onClose }: { model: ModelInfo; base: ModelInfo; onClose(): void }) {
  const key = modelKey(model.provider, model.id);
  const [draft, setDraft] = useState<Record<EditableKey, number | boolean>>(() => {
    const initial = {} as Record<EditableKey, number | boolean>;
    for (const field of FIELDS) initial[field.key] = factValue(model, field.key);
    return initial;
  });
  const [error, setError] = useState<string | null>(null);

  const save = () => {
    const override: Partial<ModelInfo> = {};
    for (const field of FIELDS) {
      const value = draft[field.key];
      if (field.kind === "number" && (typeof value !== "number" || !Number.isInteger(value) || value <= 0)) {
        setError(`${field.label} must be a positive whole number`);
        return;
      }
      // Only what differs from the catalogue is an edit, so the rest keeps its source.
      if (value !== factValue(base, field.key)) (override as Record<string, unknown>)[field.key] = value;
    }
    setModelOverride(key, Object.keys(override).length > 0 ? override : null);
    onClose();
  };

  return (
    <form
      className="model-form"
      data-testid="model-edit-form"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      {FIELDS.map((field) => (
        <label key={field.key} style={{ display: "contents" }}>
          <span className="k">{field.label}</span>
          {field.kind === "number" ? (
            <input
              type="number"
              min={1}
              step={1}
              data-testid={field.testId}
              value={String(draft[field.key])}
              onChange={(event) => setDraft({ ...draft, [field.key]: event.target.value === "" ? NaN : Number(event.target.value) })}
            />
          ) : (
            <input
              type="checkbox"
              data-testid={field.testId}
              checked={draft[field.key] === true}
              onChange={(event) => setDraft({ ...draft, [field.key]: event.target.checked })}
            />
          )}
        </label>
      ))}
      {error && <div className="explain error-text">{error}</div>}
      <div className="actions">
        <button type="submit" className="btn small" data-testid="model-edit-save">
          Save
        </button>
        <button type="button" className="btn small" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The window row's words when the window comes from the session rather than the model's facts. */
const SESSION_WINDOW = {
  label: "inferred from this session",
  title:
    "The model is not in Contextscope's list, and this session's requests grew larger than the default window: the window is at least the largest context the session reached, so that is the window used here and in the simulator. Edit it if you know the model.",
};

export function ModelFacts({ model, thinkingLevel = null, windowFromSession = null }: { model: ModelInfo; thinkingLevel?: string | null; windowFromSession?: number | null }) {
  const reasoning = turnReasoning(model, thinkingLevel);
  const [editing, setEditing] = useState(false);
  const key = modelKey(model.provider, model.id);
  const override = useAppStore((state) => state.options.modelOverrides[key]);
  const header = useAppStore((state) => state.options.header);
  const captures = useAppStore((state) => state.options.captures);
  // Facts the attached captures taught for this model (src/core/captures/modelFacts.ts), under the user's edits.
  const learnt = captureModelOverrides({ header, captures })[modelKey(CAPTURE_MODEL_PROVIDER, model.id)];
  // What the catalogue alone says: the source of every fact the user did not edit.
  const base = resolveModel({ provider: model.provider, modelId: model.id }, model.api);
  const baseSource = sourceWords(base.source);
  return (
    <div data-testid="model-facts">
      <div className="kv" title={baseSource.title}>
        <span className="k">facts from</span>
        <span className="v" data-testid="model-facts-source">{baseSource.label}</span>
      </div>
      {FIELDS.map((field) => {
        const edited = override !== undefined && override[field.key] !== undefined;
        const fromCapture = learnt !== undefined && learnt[field.key] !== undefined;
        // Only a fact whose source differs from the list's names it (the list's is said once above).
        const own = edited
          ? sourceWords("user")
          : fromCapture
            ? { label: `from ${learnt.source ?? "a captured request"}`, title: "Learnt from an attached capture." }
            : field.key === "contextWindow" && windowFromSession !== null
              ? SESSION_WINDOW
              : null;
        const value = field.key === "contextWindow" && own === SESSION_WINDOW && windowFromSession !== null ? windowFromSession : factValue(model, field.key);
        return (
          <div key={field.key} className="kv" data-testid={`model-fact-${field.key}`} data-source={own ? own.label : baseSource.label}>
            <span className="k">{field.label}</span>
            <span className="v" title={own?.title ?? baseSource.title}>
              {field.key === "reasoning" ? show(reasoning.reasoning) : show(value)}
              {field.key === "reasoning" && reasoning.fromThinking && <span className="muted"> · the turn recorded thinking {thinkingLevel}</span>}
              {own && <span className="muted"> · {own.label}</span>}
            </span>
          </div>
        );
      })}
      <div className="model-actions">
        {!editing && (
          <button type="button" className="btn small" data-testid="model-edit" onClick={() => setEditing(true)}>
            Edit
          </button>
        )}
        {override && (
          <button type="button" className="btn small" data-testid="model-edit-reset" onClick={() => setModelOverride(key, null)}>
            Reset to our model list
          </button>
        )}
      </div>
      {editing && <EditForm key={key} model={model} base={base} onClose={() => setEditing(false)} />}
    </div>
  );
}
