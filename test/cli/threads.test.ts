// `threads` and `prefix --thread/--threads` on the hand-written Codex fixture (a parent rollout,
// two children, a grandchild): the tree with depth, parent and spawning call; every prefix line
// names its thread; a wrong thread id is a clear error.
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoPath } from "../support/fixtures";
import { runCliCaptured } from "./cli-helpers";

const FOLDER = repoPath("test/fixtures/codex/spawn-agents/sessions/2026/03/01");
const files = readdirSync(FOLDER).sort().map((name) => path.join(FOLDER, name));
const parent = files.find((file) => file.includes("a001"))!;
const withChildren = files.filter((file) => file !== parent).flatMap((file) => ["--with", file]);
const ADA = "0199a000-0000-7000-8000-00000000c001";
const BROOK = "0199a000-0000-7000-8000-00000000c002";
const COLE = "0199a000-0000-7000-8000-00000000d001";

describe("threads", () => {
  it("lists the main thread, then each sub-agent thread under the one that spawned it", async () => {
    const run = await runCliCaptured(["threads", parent, ...withChildren]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.lines.map((line) => [line.thread, line.parentThreadId, line.depth, line.turns, (line.spawnedBy as { toolCallId?: string } | null)?.toolCallId ?? null])).toEqual([
      [null, null, 0, 3, null],
      [ADA, null, 1, 3, "call_spawn_ada"],
      [COLE, ADA, 2, 2, "call_spawn_cole"],
      [BROOK, null, 1, 1, "call_spawn_brook"],
    ]);
    expect(run.lines[1]).toMatchObject({ label: "Ada (explorer)", origin: "file", requests: 3, breaks: 0 });
    // A thread's cost is what `prefix --thread` prices its turns' recorded usage at, summed.
    const ada = await runCliCaptured(["prefix", parent, ...withChildren, "--thread", ADA, "--tokenizer", "estimate"]);
    const recorded = ada.lines.map((line) => (line.cost as { recorded: { status: string; dollars: number | null } }).recorded);
    const cost = run.lines[1]!.cost as { status: string; dollars: number | null };
    expect(cost.status).toBe(recorded.every((item) => item.status === "priced") ? "priced" : "partly priced");
    expect(cost.dollars).toBeCloseTo(recorded.reduce((sum, item) => sum + (item.dollars ?? 0), 0), 12);
  });

  it("without the child files lists only the main thread", async () => {
    const run = await runCliCaptured(["threads", parent]);
    expect(run.code).toBe(0);
    expect(run.lines).toHaveLength(1);
    expect(run.lines[0]).toMatchObject({ thread: null, turns: 3 });
  });
});

describe("prefix with threads", () => {
  it("names the thread on every line: null for the main thread", async () => {
    const run = await runCliCaptured(["prefix", parent, ...withChildren]);
    expect(run.code).toBe(0);
    expect(run.lines.map((line) => [line.turn, line.thread])).toEqual([
      [1, null],
      [2, null],
      [3, null],
    ]);
  });

  it("--thread analyses one sub-agent thread's own requests", async () => {
    const run = await runCliCaptured(["prefix", parent, ...withChildren, "--thread", COLE]);
    expect(run.code).toBe(0);
    expect(run.lines.map((line) => [line.turn, line.thread, line.cause])).toEqual([
      [1, COLE, null],
      [2, COLE, null],
    ]);
    expect(run.lines[1]!.sharedBytes).toBe(run.lines[0]!.bytes);
  });

  it("--threads analyses the main thread, then every sub-agent thread in tree order", async () => {
    const run = await runCliCaptured(["prefix", parent, ...withChildren, "--threads"]);
    expect(run.code).toBe(0);
    expect(run.lines.map((line) => line.thread)).toEqual([null, null, null, ADA, ADA, ADA, COLE, COLE, BROOK]);
  });

  it("a thread id the session does not have is an error naming the ones it has", async () => {
    const run = await runCliCaptured(["prefix", parent, ...withChildren, "--thread", "nope"]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("--thread nope");
    expect(run.stderr).toContain(ADA);
  });
});
