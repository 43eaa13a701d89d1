// The thread tree and the links between a spawning tool call and its thread, on the hand-written
// Codex fixture (a parent, two children, a grandchild) and a small Claude Code session with a
// sub-agent file: tree order and depth, per-thread turns/requests/breaks, the Messages-tab link
// from the call to the thread, and the way back from the thread to the request holding the call.
import { datasetPriceTable } from "../../src/core/pricing/dataset";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { spawnCallLocation, threadCallLinks } from "../../src/features/threads/threadLinks";
import { threadInfos, threadTree } from "../../src/app/threads";
import type { PipelineOptions, SessionThread } from "../../src/core/model";
import { analyzeSession, buildTurnRequest } from "../../src/core/session/pipeline";
import { linkSessions } from "../../src/core/session/threads";
import { readSessionText } from "../../src/core/session/read";
import { repoPath } from "../support/fixtures";
import { iterateSessionPrefixes } from "../../src/core/session/sessionPrefixes";
import { priceUsage } from "../../src/core/pricing/index";

const FOLDER = repoPath("test/fixtures/codex/spawn-agents/sessions/2026/03/01");
const PARENT = "0199a000-0000-7000-8000-00000000a001";
const ADA = "0199a000-0000-7000-8000-00000000c001";
const BROOK = "0199a000-0000-7000-8000-00000000c002";
const COLE = "0199a000-0000-7000-8000-00000000d001";
const OPTIONS: PipelineOptions = { profile: "pi", leafId: null };

function linkedCodex() {
  // Children first: the parent is found by the tree, not by the order of the files.
  const files = readdirSync(FOLDER).sort().reverse();
  const sessions = files.map((name) => readSessionText(readFileSync(path.join(FOLDER, name), "utf8"), name));
  return linkSessions(sessions);
}

describe("thread tree (Codex parent with children and a grandchild)", () => {
  const { session, unlinked } = linkedCodex();

  it("nests every thread under the one that spawned it, depth first", () => {
    expect(unlinked).toEqual([]);
    expect(session.header?.id ?? session.fileName).toContain(PARENT);
    const tree = threadTree(session.threads ?? [], session).map(({ thread, depth }) => [thread.id, depth]);
    expect(tree).toEqual([
      [ADA, 1],
      [COLE, 2],
      [BROOK, 1],
    ]);
  });

  it("gives each thread its turns, requests, prefix breaks and the cost of its recorded usage", () => {
    const infos = threadInfos(session, OPTIONS);
    expect(infos.map((info) => [info.id, info.label, info.parentThreadId, info.depth, info.turns, info.requests, info.breaks])).toEqual([
      [ADA, "Ada (explorer)", null, 1, 3, 3, 0],
      [COLE, "Cole (default)", ADA, 2, 2, 2, 0],
      [BROOK, "Brook (explorer)", null, 1, 1, 1, 0],
    ]);
    // Each thread's cost is its turns' recorded usage priced one by one.
    for (const info of infos) {
      const thread = session.threads!.find((item) => item.id === info.id)!;
      const options = { ...OPTIONS, leafId: null };
      const analysis = analyzeSession(thread.session, options);
      const models = new Map(analysis.turns.map((turn) => [turn.turn, turn.model]));
      const reports = [...iterateSessionPrefixes(thread.session, options, { analysis, prefix: { tokenizer: "estimate", simulate: false } })];
      const priced = reports.map((report) => priceUsage(report.recordedUsage, models.get(report.turn) ?? null, datasetPriceTable()));
      expect(info.cost).not.toBeNull();
      expect(info.cost!.status).toBe(priced.every((item) => item.status === "priced") ? "priced" : priced.some((item) => item.dollars !== null) ? "partly priced" : "not priced");
      if (info.cost!.dollars !== null) expect(info.cost!.dollars).toBeCloseTo(priced.reduce((sum, item) => sum + (item.dollars ?? 0), 0), 12);
    }
  });

  it("links the parent's spawn_agent calls to their threads, in the thread shown only", () => {
    const turn2 = buildTurnRequest(session, OPTIONS, 2);
    const links = threadCallLinks(turn2.messages, session.threads ?? [], null);
    const all = [...links.values()].flat();
    expect(all.map((link) => [link.toolCallId, link.threadId])).toEqual([
      ["call_spawn_ada", ADA],
      ["call_spawn_brook", BROOK],
    ]);
    // Cole was spawned inside Ada's thread: not a link of the main thread's messages…
    expect(all.some((link) => link.threadId === COLE)).toBe(false);
    // …but of Ada's.
    const ada = session.threads!.find((thread) => thread.id === ADA)!;
    const adaTurn2 = buildTurnRequest(ada.session, OPTIONS, 2);
    const adaLinks = [...threadCallLinks(adaTurn2.messages, session.threads ?? [], ADA).values()].flat();
    expect(adaLinks.map((link) => link.threadId)).toEqual([COLE]);
  });

  it("goes back from a thread to the first parent request that holds its spawning call", () => {
    const ada = spawnCallLocation(session, ADA, OPTIONS);
    expect(ada).toMatchObject({ threadId: null, turn: 2, toolCallId: "call_spawn_ada" });
    const message = buildTurnRequest(session, OPTIONS, 2).messages[ada!.messageIndex!]!.message;
    expect(message.role).toBe("assistant");
    expect(JSON.stringify(message)).toContain("call_spawn_ada");

    const cole = spawnCallLocation(session, COLE, OPTIONS);
    expect(cole).toMatchObject({ threadId: ADA, turn: 2, toolCallId: "call_spawn_cole" });
    expect(cole!.messageIndex).not.toBeNull();
  });
});

describe("thread tree helpers on odd input", () => {
  const thread = (id: string, parentThreadId: string | null) => ({ id, parentThreadId }) as SessionThread;

  it("lists a thread whose parent is not among the threads at the top level, and survives a parent cycle", () => {
    const tree = threadTree([thread("a", "missing"), thread("b", "c"), thread("c", "b"), thread("d", "a")]);
    expect(tree.map(({ thread: item, depth }) => [item.id, depth])).toEqual([
      ["a", 1],
      ["d", 2],
      ["b", 1],
      ["c", 1],
    ]);
  });

  it("returns no location for a thread without a recorded start", () => {
    const { session } = linkedCodex();
    const withoutStart = { ...session, threads: session.threads!.map((item) => ({ ...item, spawnedBy: null })) };
    expect(spawnCallLocation(withoutStart, ADA, OPTIONS)).toBeNull();
  });
});
