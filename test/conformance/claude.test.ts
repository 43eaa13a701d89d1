// Conformance of the Claude Code profile against the recorded fixture (formats.md FM-CC-19): every
// main request rebuilt from the transcript equals the recorded body — `messages` exactly, and the
// whole body once the one non-derivable part is matched as a placeholder: metadata.user_id
// (device and account ids; a capture supplies them). The billing header's suffix is derived.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { analyzeSession, buildTurnRequest, countTurns } from "../../src/core/session/pipeline";
import { readSessionText } from "../../src/core/session/index";
import type { PipelineOptions } from "../../src/core/model";
import { fixtureCase } from "../support/fixtures";

const fixture = fixtureCase("claude/print-autocompact-manualcompact");

const OPTIONS: PipelineOptions = { profile: "pi" };

interface Recorded {
  number: string;
  body: Record<string, unknown>;
}

function mainRequests(): Recorded[] {
  return fixture.requests("main").map((request) => ({ number: request.id, body: request.body }));
}

/** True when `ours` equals `recorded` with each `[not recorded: …]` placeholder standing for any text. */
export function matchesWithPlaceholders(ours: string, recorded: string): boolean {
  const pattern = ours
    .split(/\[not recorded: [^\]]*\]/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join('[^;"]*');
  return new RegExp(`^${pattern}$`).test(recorded);
}

describe("Claude Code conformance (print-autocompact-manualcompact)", () => {
  const text = fs.readFileSync(fixture.sessionPath, "utf8");
  const session = readSessionText(text, "session.jsonl");
  const recorded = mainRequests();

  it("detects the transcript and finds one turn per main request", () => {
    expect(session?.formatId).toBe("claude-code");
    expect(recorded).toHaveLength(15);
    expect(countTurns(session!, OPTIONS)).toBe(recorded.length);
  });

  it("rebuilds the conversation part (messages) of every main request exactly", () => {
    const mismatches: string[] = [];
    recorded.forEach((request, i) => {
      const built = buildTurnRequest(session!, OPTIONS, i + 1);
      try {
        expect(built.body.messages).toEqual(request.body.messages);
      } catch {
        mismatches.push(request.number);
      }
    });
    expect(mismatches).toEqual([]);
  });

  it("rebuilds the whole body except the documented non-derivable fields", () => {
    recorded.forEach((request, i) => {
      const built = buildTurnRequest(session!, OPTIONS, i + 1);
      const body = built.body;
      expect(Object.keys(body)).toEqual(Object.keys(request.body));
      const ourSystem = body.system as { text: string }[];
      const theirSystem = request.body.system as { text: string }[];
      expect(ourSystem[0]!.text).toBe(theirSystem[0]!.text);
      const ourUser = (body.metadata as { user_id: string }).user_id;
      const theirUser = (request.body.metadata as { user_id: string }).user_id;
      expect(matchesWithPlaceholders(ourUser, theirUser)).toBe(true);
      const normalise = (value: Record<string, unknown>) => ({
        ...value,
        system: (value.system as unknown[]).slice(1),
        metadata: null,
      });
      expect(normalise(body)).toEqual(normalise(request.body));
      expect(JSON.stringify(normalise(body))).toBe(JSON.stringify(normalise(request.body)));
      expect(built.notRecorded.some((label) => label.includes("billing header"))).toBe(false);
      expect(built.notRecorded.some((label) => label.includes("metadata.user_id"))).toBe(true);
    });
  });

  it("shows both compactions as timeline events before the right turns", () => {
    const analysis = analyzeSession(session!, OPTIONS);
    const events = analysis.timeline.filter((item) => item.kind === "compaction");
    expect(events).toHaveLength(2);
    expect(events.map((event) => (event.kind === "compaction" ? event.beforeTurn : null))).toEqual([9, 14]);
    expect(events.map((event) => (event.kind === "compaction" ? event.tokensBefore : null))).toEqual([95084, 16299]);
  });
});
