// Provider wire shape to render: as recorded (the model's own API at each turn) or forced.
import { API_IDS, type ApiId } from "../core/model";
import { setApi } from "./options";
import { useAppStore } from "./store";
import { API_LABELS } from "../ui/format";

export function ProviderSelect() {
  const api = useAppStore((state) => state.options.api);
  return (
    <label className="field" title="Provider request shape">
      <span className="field-label">Shape</span>
      <select
        data-testid="provider-select"
        value={api ?? ""}
        onChange={(event) => setApi(event.target.value === "" ? null : (event.target.value as ApiId))}
      >
        <option value="">as recorded</option>
        {API_IDS.map((id) => (
          <option key={id} value={id}>
            {API_LABELS[id] ?? id}
          </option>
        ))}
      </select>
    </label>
  );
}
