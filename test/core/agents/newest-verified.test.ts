// The newest version verified of each program, as docs/fidelity.md lists it, is the one its
// agent's descriptor names: the two are written by hand and must not drift apart.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { allAgents } from "../../../src/core/session/agents";

function documentedRows(): string[] {
  const text = readFileSync(path.resolve(__dirname, "../../../docs/fidelity.md"), "utf8");
  const section = text.split("## Newest versions verified")[1]!.split("\n## ")[0]!;
  return section
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| program") && !line.startsWith("|---"))
    .map((line) => line.split("|").slice(1, -1).map((cell) => cell.trim()).join(" / "));
}

describe("newest versions verified", () => {
  it("docs/fidelity.md lists exactly the descriptors' values", () => {
    const described = allAgents().flatMap((agent) => (agent.newestVerified ?? []).map((item) => `${item.program} / ${agent.id} / ${item.version}`));
    expect(documentedRows().sort()).toEqual(described.sort());
  });
  it("names one for every agent the recordings verify (the shared ones, and Kilo's and Kimi Code's own in test/fixtures)", () => {
    const withVersion = allAgents().filter((agent) => (agent.newestVerified ?? []).length > 0).map((agent) => agent.id);
    expect(withVersion.sort()).toEqual(["claude-code", "codex", "deepseek-harness", "gemini-cli", "kilo", "kimi-code", "opencode", "pi"]);
  });
});
