// Branch (leaf) of a tree-shaped session; shown only when the session has more than one leaf.
// Claude Code sub-agents (sidechains, FM-CC-8) are listed apart, as sub-agent threads.
import type { BranchInfo } from "../core/model";
import { setLeaf } from "./options";
import { useAppStore } from "./store";
import { formatDateTime } from "../ui/format";

function optionText(branch: BranchInfo, fallback: string): string {
  const name = branch.thread === "sub-agent" ? `sub-agent thread: ${(branch.label ?? fallback).replace(/^sidechain\s*/, "")}` : branch.label ?? fallback;
  return `${name} · ${branch.turns} turns · ${formatDateTime(branch.timestamp)}${branch.isDefault ? " (latest)" : ""}`;
}

function BranchOption({ branch, fallback }: { branch: BranchInfo; fallback: string }) {
  return (
    <option value={branch.leafId} data-thread={branch.thread}>
      {optionText(branch, fallback)}
    </option>
  );
}

export function BranchPicker() {
  const branches = useAppStore((state) => state.analysis?.branches);
  const leafId = useAppStore((state) => state.options.leafId);
  const analysisLeaf = useAppStore((state) => state.analysis?.leafId ?? null);
  if (!branches || branches.length <= 1) return null;
  const current = leafId ?? analysisLeaf ?? branches.find((branch) => branch.isDefault)?.leafId ?? "";
  const subAgents = branches.filter((branch) => branch.thread === "sub-agent");
  const main = branches.filter((branch) => branch.thread !== "sub-agent");
  const fallback = (branch: BranchInfo) => (branch.thread === "main" ? "main thread" : `branch ${branches.indexOf(branch) + 1}`);
  return (
    <label className="field" title="Branch of the session tree to show">
      <span className="field-label">Branch</span>
      <select className="branch-select" data-testid="branch-select" value={current} onChange={(event) => setLeaf(event.target.value)}>
        {subAgents.length === 0 ? (
          main.map((branch) => <BranchOption key={branch.leafId} branch={branch} fallback={fallback(branch)} />)
        ) : (
          <>
            <optgroup label="Main thread">
              {main.map((branch) => (
                <BranchOption key={branch.leafId} branch={branch} fallback={fallback(branch)} />
              ))}
            </optgroup>
            <optgroup label="Sub-agent threads (sidechains)">
              {subAgents.map((branch) => (
                <BranchOption key={branch.leafId} branch={branch} fallback={fallback(branch)} />
              ))}
            </optgroup>
          </>
        )}
      </select>
    </label>
  );
}
