// Branch (leaf) of a tree-shaped session; shown only when the session has more than one leaf.
import { setLeaf } from "../state/actions";
import { useAppStore } from "../state/store";
import { formatDateTime } from "./format";

export function BranchPicker() {
  const branches = useAppStore((state) => state.analysis?.branches);
  const leafId = useAppStore((state) => state.options.leafId);
  const analysisLeaf = useAppStore((state) => state.analysis?.leafId ?? null);
  if (!branches || branches.length <= 1) return null;
  const current = leafId ?? analysisLeaf ?? branches.find((branch) => branch.isDefault)?.leafId ?? "";
  return (
    <label className="field" title="Branch of the session tree to show">
      <span className="field-label">Branch</span>
      <select className="branch-select" data-testid="branch-select" value={current} onChange={(event) => setLeaf(event.target.value)}>
        {branches.map((branch, index) => (
          <option key={branch.leafId} value={branch.leafId}>
            {`${branch.label ?? `branch ${index + 1}`} · ${branch.turns} turns · ${formatDateTime(branch.timestamp)}${branch.isDefault ? " (latest)" : ""}`}
          </option>
        ))}
      </select>
    </label>
  );
}
