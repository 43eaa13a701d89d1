// Request dumps as ground truth (hermes-storage.md HS-32 … HS-34): the test writes a
// request_dump_*.json for a turn of the shared state.db the way hermes-agent does — built here,
// step by step, from the session_<id>.json snapshot's messages by the spec's assembly rules
// (HS-37 system message, HS-38 per-message copy, HS-42 system_and_3 markers, HS-39 strip and
// canonical arguments), not by our builder — and `requests --check-dumps` reports it equal; a
// changed dump is reported with the first differing path.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { describeShared } from "../support/fixtures";
import { runCliCaptured } from "./cli-helpers";
import { dumpFile, specBody, type Json } from "../support/hermes-dump";

const PLAIN = "20261201_090624_3e9952";

describeShared("requests --check-dumps (hermes-agent request dumps)", (shared) => {
  const source = shared.path("hermes-storage");

  function home(dump: Json): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), "hermes-home-"));
    for (const name of ["state.db", "state.db-wal"]) copyFileSync(path.join(source, name), path.join(dir, name));
    mkdirSync(path.join(dir, "sessions"));
    for (const name of readdirSync(path.join(source, "sessions"))) copyFileSync(path.join(source, "sessions", name), path.join(dir, "sessions", name));
    writeFileSync(path.join(dir, "sessions", `request_dump_${PLAIN}_20261201_090624_490000.json`), JSON.stringify(dump, null, 2));
    return dir;
  }

  const snapshot = JSON.parse(readFileSync(path.join(source, "sessions", `session_${PLAIN}.json`), "utf8")) as Json;

  it("a dump built the way hermes writes it is equal to the rebuilt request of its turn", async () => {
    // Turn 2 sends user, assistant (two parallel calls, reasoning), tool, tool.
    const dir = home(dumpFile(snapshot, specBody(snapshot, 4)));
    const run = await runCliCaptured(["requests", path.join(dir, "state.db"), "--session", PLAIN, "--check-dumps"]);
    expect(run.code).toBe(0);
    expect(run.lines).toHaveLength(1);
    expect(run.lines[0]).toMatchObject({ kind: "dump-check", turn: 2, result: "equal", notRebuilt: ["max_tokens", "extra_body"] });
    expect(run.stderr).toMatch(/turn 2: equal/);
  });

  it("a changed dump is reported with the first differing path", async () => {
    const body = specBody(snapshot, 4);
    const messages = body.messages as Json[];
    const calls = (messages[2] as Json).tool_calls as Json[];
    (calls[1]!.function as Json).arguments = '{"command":"ls -1 /tmp | tail"}';
    const dir = home(dumpFile(snapshot, body));
    const run = await runCliCaptured(["requests", dir, "--session", PLAIN, "--check-dumps"]);
    expect(run.code).toBe(1);
    expect(run.lines[0]).toMatchObject({ turn: 2, result: "differs", path: "messages[2].tool_calls[1].function.arguments" });
    expect(run.stderr).toMatch(/turn 2: differs at messages\[2\]\.tool_calls\[1\]\.function\.arguments/);
  });

  it("a dump no turn sends is reported unmatched", async () => {
    const body = specBody(snapshot, 4);
    (body.messages as Json[]).push({ role: "user", content: "never stored" });
    const run = await runCliCaptured(["requests", home(dumpFile(snapshot, body)), "--session", PLAIN, "--check-dumps"]);
    expect(run.code).toBe(1);
    expect(run.lines[0]).toMatchObject({ result: "unmatched" });
  });

  it("the state.db opens in the CLI: three sessions' turns, the compaction line between the pair", async () => {
    const run = await runCliCaptured(["requests", path.join(source, "state.db")]);
    expect(run.code).toBe(0);
    const kinds = run.lines.map((line) => (typeof line.turn === "number" ? "turn" : String(line.kind)));
    expect(kinds.filter((k) => k === "turn")).toHaveLength(12);
    expect(kinds.indexOf("compaction")).toBe(10);
    const compaction = run.lines[10]!;
    expect((compaction.requests as unknown[]).length).toBeGreaterThan(0);
  });

  it("prefix: the moving system_and_3 markers break nothing; the compaction rewrites the history", async () => {
    const run = await runCliCaptured(["prefix", path.join(source, "state.db")]);
    expect(run.code).toBe(0);
    const breaks = run.lines.filter((line) => line.breakPath !== null).map((line) => [line.turn, line.cause]);
    expect(breaks).toEqual([[11, "history-rewritten"]]);
  });
});
