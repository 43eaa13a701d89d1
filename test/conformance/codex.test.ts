// Conformance of the Codex profile against the recorded fixture (formats.md FM-CX-8 … FM-CX-13):
// every main request rebuilt from the rollout equals the recorded body — `input` exactly (the
// base instructions item's id, not in the rollout, matched as a placeholder) and the whole body
// except the documented non-derivable fields: `tools` (not in the rollout) and the parts of
// `client_metadata` the rollout does not hold (installation id, sandbox/analytics flags, start time).
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import type { PipelineOptions } from "../../src/core/model";
import { isNotRecorded } from "../../src/core/model";
import { analyzeSession, buildTurnRequest, countTurns } from "../../src/core/session/pipeline";
import { readSessionText } from "../../src/core/session/index";
import { fixtureCase } from "../support/fixtures";

const fixture = fixtureCase("codex/exec-autocompact");

const OPTIONS: PipelineOptions = { profile: "pi" };

function mainRequests(): { number: string; body: Record<string, unknown> }[] {
  return fixture.requests("main").map((request) => ({ number: request.id, body: request.body }));
}

const PLACEHOLDER = /^\[not recorded: [^\]]*\]$/;

/** Derivable keys of client_metadata and of its x-codex-turn-metadata JSON (FM-CX-12, FM-CX-13). */
const DERIVED_CLIENT_KEYS = ["x-codex-window-id", "thread_id", "root_turn_id", "turn_id", "session_id"];
const DERIVED_TURN_METADATA_KEYS = [
  "session_id",
  "thread_id",
  "turn_id",
  "window_id",
  "window_number",
  "context_window_id",
  "request_kind",
  "history_initialization",
  "root_turn_id",
  "thread_source",
  "turn_trigger",
  "model",
];

describe("Codex conformance (exec-autocompact)", () => {
  const session = readSessionText(fs.readFileSync(fixture.sessionPath, "utf8"), "rollout.jsonl");
  const recorded = mainRequests();

  it("detects the rollout and finds one turn per main request", () => {
    expect(session?.formatId).toBe("codex");
    expect(recorded).toHaveLength(15);
    expect(countTurns(session!, OPTIONS)).toBe(recorded.length);
  });

  it("rebuilds the conversation part (input) of every main request exactly", () => {
    const mismatches: string[] = [];
    recorded.forEach((request, i) => {
      const built = buildTurnRequest(session!, OPTIONS, i + 1);
      const ours = built.body.input as Record<string, unknown>[];
      const theirs = request.body.input as Record<string, unknown>[];
      const first = ours[0]!;
      expect(first.id).toMatch(PLACEHOLDER);
      const withRecordedId = [{ ...first, id: theirs[0]!.id }, ...ours.slice(1)];
      if (JSON.stringify(withRecordedId) !== JSON.stringify(theirs)) mismatches.push(request.number);
    });
    expect(mismatches).toEqual([]);
  });

  it("rebuilds the whole body except the documented non-derivable fields", () => {
    recorded.forEach((request, i) => {
      const built = buildTurnRequest(session!, OPTIONS, i + 1);
      const body = built.body;
      expect(Object.keys(body)).toEqual(Object.keys(request.body));
      expect(isNotRecorded(body.tools)).toBe(true);
      const ourMeta = body.client_metadata as Record<string, string>;
      const theirMeta = request.body.client_metadata as Record<string, string>;
      for (const key of DERIVED_CLIENT_KEYS) expect([request.number, key, ourMeta[key]]).toEqual([request.number, key, theirMeta[key]]);
      expect(ourMeta["x-codex-installation-id"]).toMatch(PLACEHOLDER);
      const ourTurn = JSON.parse(ourMeta["x-codex-turn-metadata"]!) as Record<string, unknown>;
      const theirTurn = JSON.parse(theirMeta["x-codex-turn-metadata"]!) as Record<string, unknown>;
      for (const key of DERIVED_TURN_METADATA_KEYS) expect([request.number, key, ourTurn[key]]).toEqual([request.number, key, theirTurn[key]]);
      const rest = (value: Record<string, unknown>) => {
        const { input: _input, tools: _tools, client_metadata: _meta, ...others } = value;
        return others;
      };
      expect(JSON.stringify(rest(body))).toBe(JSON.stringify(rest(request.body)));
    });
  });

  it("shows the compaction as a timeline event before turn 9", () => {
    const analysis = analyzeSession(session!, OPTIONS);
    const events = analysis.timeline.filter((item) => item.kind === "compaction");
    expect(events).toHaveLength(1);
    // The file reports 13,679 for the last response before the compaction (the spec text says 13,678).
    expect(events[0]).toMatchObject({ kind: "compaction", beforeTurn: 9, tokensBefore: 13679 });
    expect(analysis.turns[0]!.usage).toMatchObject({ input: 10092, output: 25, cacheRead: 0 });
  });
});
