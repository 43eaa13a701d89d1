// Structures of Claude Code 2.1.x transcripts, each in a small transcript of our own
// (test/fixtures/claude/structures, README there): a resumed session's re-written chain, the
// bookkeeping line types, a progress line as a message's parent, a chain fanning out, record
// types we do not know, and sub-agent files Claude Code starts for itself. Every provider call is
// a turn or named; no structure Claude Code writes is a warning.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { PipelineOptions, Session } from "../../../../src/core/model";
import { analyzeSession } from "../../../../src/core/session/pipeline";
import { readSessionText } from "../../../../src/core/session/index";
import { recordReport, unknownRecordsSentence } from "../../../../src/core/session/recordReport";
import { linkSessions } from "../../../../src/core/session/threads";
import { fixturePath } from "../../../support/fixtures";

const OPTIONS: PipelineOptions = { profile: "pi" };

function read(name: string): Session {
  return readSessionText(readFileSync(fixturePath(`claude/structures/${name}`), "utf8"), name);
}

/** The request ids of the assistant lines of the main chain, as answered turns, in order. */
function turnRequestIds(session: Session): string[] {
  const byId = new Map(session.entries.map((entry) => [entry.id, entry]));
  return analyzeSession(session, OPTIONS).turns.map((turn) => String(byId.get(turn.entryId ?? "")?.raw.requestId));
}

describe("a resumed session that writes its chain again", () => {
  it("reads the first copy of each line, skips the re-written copies without a warning, and counts them", () => {
    const session = read("resumed-rewrite.jsonl");
    expect(session.warnings).toEqual([]);
    expect(session.skippedLines).toEqual([{ what: "re-written copy", count: 4, why: expect.stringContaining("resumed") }]);
    // The first copy of the tool result keeps the file's contents the re-written one left out.
    const result = session.entries.find((entry) => entry.id === "r1");
    expect(result?.line).toBe(4);
    expect(result?.raw.slug).toBeUndefined();
  });

  it("goes on past the last last-prompt record to the answer written under its leaf: every call is a turn", () => {
    const session = read("resumed-rewrite.jsonl");
    const analysis = analyzeSession(session, OPTIONS);
    expect(turnRequestIds(session)).toEqual(["req_1", "req_2", "req_3"]);
    expect(analysis.leafId).toBe("a3");
    expect(analysis.warnings).toEqual([]);
  });

  it("warns, naming the uuid, when a later line under a uuid holds another message", () => {
    const lines = readFileSync(fixturePath("claude/structures/resumed-rewrite.jsonl"), "utf8").split("\n");
    lines[10] = lines[10]!.replace('"text":"done"', '"text":"changed"');
    const session = readSessionText(lines.join("\n"), "changed.jsonl");
    expect(session.warnings).toEqual([{ line: 11, reason: "duplicate uuid a2 with other content: later copy skipped" }]);
    expect(session.skippedLines?.[0]?.count).toBe(3);
  });
});

describe("bookkeeping lines of 2.1.x", () => {
  it("are read or skipped on purpose, never warnings, and the report names each with its count", () => {
    const session = read("metadata-lines.jsonl");
    const analysis = analyzeSession(session, OPTIONS);
    expect([...session.warnings, ...analysis.warnings]).toEqual([]);
    expect(analysis.turns).toHaveLength(2);
    const report = recordReport(session)!;
    expect(report.unknown).toEqual([]);
    expect(report.skipped.map((item) => item.type).sort()).toEqual(
      ["agent-name", "ai-title", "bridge-session", "file-history-delta", "file-history-snapshot", "mode", "permission-mode"].sort(),
    );
    expect(report.read).toContainEqual({ type: "last-prompt", count: 1 });
    expect(report.versions).toEqual(["2.1.143"]);
    expect(unknownRecordsSentence(report)).toBeNull();
  });
});

describe("a progress line that is the parent of a message", () => {
  it("is a link of the chain: both calls are turns, the tool result is in the second request", () => {
    const session = read("progress-parent.jsonl");
    const analysis = analyzeSession(session, OPTIONS);
    expect(turnRequestIds(session)).toEqual(["req_1", "req_2"]);
    expect(analysis.turns[1]!.messageCount).toBe(3);
    expect([...session.warnings, ...analysis.warnings]).toEqual([]);
  });
});

describe("a chain fanning out to several leaves", () => {
  it("lists one branch per leaf, shows the last one, and names the calls on the others", () => {
    const session = read("fan-out.jsonl");
    const analysis = analyzeSession(session, OPTIONS);
    expect(analysis.branches.map((branch) => branch.leafId)).toEqual(["a2b", "a2c", "a2d"]);
    expect(turnRequestIds(session)).toEqual(["req_1", "req_2d"]);
    expect(analysis.warnings).toEqual([
      { line: 4, reason: "2 provider calls of the file are on other branches, not in this timeline (lines 4, 6): pick the branch that ends there to see them" },
    ]);
    // On another branch, the calls of the others are named instead.
    const other = analyzeSession(session, { ...OPTIONS, leafId: "a2b" });
    expect(other.turns).toHaveLength(2);
    expect(other.warnings[0]?.reason).toContain("(lines 6, 8)");
  });
});

describe("record types this version does not read", () => {
  it("are no reader warning, and the report counts each with its first line, in plain words", () => {
    const session = read("unknown-types.jsonl");
    expect(session.warnings).toEqual([]);
    const report = recordReport(session)!;
    expect(report.unknown).toEqual([
      { type: "future-record", count: 2, firstLine: 2 },
      { type: "another-new-record", count: 1, firstLine: 5 },
    ]);
    expect(unknownRecordsSentence(report)).toBe(
      "3 lines of 2 types this version of Contextscope does not read: future-record (2, first on line 2), another-new-record (1, first on line 5)",
    );
  });
});

describe("sub-agent files of a session, those Claude Code starts for itself included", () => {
  it("link as threads without a warning: the Agent call's, the compaction summariser's and the side question's", () => {
    const dir = fixturePath("claude/structures/subagents-session/subagents");
    const files = readdirSync(dir).filter((name) => name.endsWith(".jsonl")).sort();
    const others = files.map((name) => readSessionText(readFileSync(path.join(dir, name), "utf8"), name));
    const linked = linkSessions([read("subagents-session.jsonl"), ...others]);
    expect(linked.unlinked).toEqual([]);
    const threads = linked.session.threads ?? [];
    expect(threads.map((thread) => [thread.id, thread.label, thread.spawnedBy?.toolName ?? null])).toEqual([
      ["a0123456789abcdef", "Agent: Explore the tree (a0123456789abcdef)", "Agent"],
      ["acompact-0123456789abcdef", "compaction summariser (acompact-0123456789abcdef)", null],
      ["aside_question-0123456789abcdef", "side question (aside_question-0123456789abcdef)", null],
    ]);
    for (const thread of threads) {
      const analysis = analyzeSession(thread.session, OPTIONS);
      expect(analysis.turns).toHaveLength(1);
      expect([...thread.session.warnings, ...analysis.warnings]).toEqual([]);
    }
    const main = analyzeSession(linked.session, OPTIONS);
    expect(main.turns).toHaveLength(3);
    expect(main.timeline.filter((item) => item.kind === "compaction")).toHaveLength(1);
    expect(main.warnings).toEqual([]);
  });
});
