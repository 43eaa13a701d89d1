// Codex 0.14x structures in a rollout of our own (test/fixtures/codex/structures, README there):
// `world_state` lines and a `session_meta` written again on resume are read without a warning,
// both model responses are turns, and the report of what the file holds names them.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { analyzeSession } from "../../../../src/core/session/pipeline";
import { readSessionText } from "../../../../src/core/session/index";
import { recordReport } from "../../../../src/core/session/recordReport";
import { fixturePath } from "../../../support/fixtures";

describe("a resumed Codex rollout with world_state lines", () => {
  const session = readSessionText(readFileSync(fixturePath("codex/structures/resumed-world-state.jsonl"), "utf8"), "rollout.jsonl");

  it("opens with both model responses as turns and no warning", () => {
    const analysis = analyzeSession(session, { profile: "pi" });
    expect(session.formatId).toBe("codex");
    expect(analysis.turns).toHaveLength(2);
    expect(analysis.turns.map((turn) => turn.usage?.input)).toEqual([90, 220]);
    expect([...session.warnings, ...analysis.warnings]).toEqual([]);
  });

  it("reports world_state as skipped on purpose, the repeated session_meta as read, and the version once", () => {
    const report = recordReport(session)!;
    expect(report.unknown).toEqual([]);
    expect(report.skipped).toEqual([{ type: "world_state", count: 2, why: expect.any(String) }]);
    expect(report.read).toContainEqual({ type: "session_meta", count: 2 });
    expect(report.versions).toEqual(["0.146.0"]);
  });
});
