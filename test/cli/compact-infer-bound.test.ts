// With no automatic compaction recorded, the turns only say where the trigger did not fire: the
// setting is not set to that lower bound (which would make the simulator fire one token later,
// "13188 ≥ 13189"), the policy's own rule stays. Truth: the Codex rollout's raw token_count totals.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { runCliCaptured } from "./cli-helpers";
import { fixtureCase } from "../support/fixtures";

it("Codex, its compaction taken as manual: model_auto_compact_token_limit is bounded, not set to the bound", async () => {
  const file = fixtureCase("codex/exec-autocompact").sessionPath;
  const totals = readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.includes('"token_count"'))
    .map((line) => (JSON.parse(line) as { payload: { info?: { last_token_usage: { total_tokens: number } } } }).payload.info?.last_token_usage.total_tokens ?? 0);
  const run = await runCliCaptured(["compact", file, "--policy", "codex", "--infer-settings", "--manual-compactions", "1"]);
  expect(run.code).toBe(0);
  const setting = run.lines.find((line) => line.setting === "autoCompactTokenLimit")!;
  // The quiet turns bound it from below: one above the largest total among them (the largest
  // of all is the compacted turn's own, which does not count when the compaction was manual).
  const distinct = [...new Set(totals)].sort((a, b) => b - a);
  expect(setting.min).toBe(distinct[1]! + 1);
  expect(setting.max).toBeNull();
  expect(setting.value).toBeNull();
  const summary = run.lines.find((line) => line.kind === "inference")!;
  expect(summary.parameters).not.toHaveProperty("autoCompactTokenLimit");
});
