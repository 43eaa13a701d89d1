// `requests` pipeline switches: `--notes on|off` (senpi reply-language notes), `--profile senpi`
// on the recorded senpi run, and `--leaf` (the branch to show).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCliCaptured } from "./cli-helpers";
import { fixtureCase } from "../support/fixtures";

const PI_SESSION = fixtureCase("pi/print-openai-autocompact").sessionPath;
const SENPI = fixtureCase("senpi/print-openai-autocompact");
const SENPI_SESSION = SENPI.sessionPath;

type Line = Record<string, unknown>;
const turns = (lines: Line[]) => lines.filter((l) => "turn" in l) as { turn: number; request: { messages: unknown[] } }[];
const noteCount = (messages: unknown[]) => messages.filter((m) => JSON.stringify(m).includes("Reply language: ")).length;

describe("requests --notes", () => {
  it("senpi profile, notes on: requests after each compaction name the requested language; off: no note anywhere", async () => {
    const on = await runCliCaptured(["requests", PI_SESSION, "--profile", "senpi", "--notes", "on"]);
    const off = await runCliCaptured(["requests", PI_SESSION, "--profile", "senpi", "--notes", "off"]);
    const plain = await runCliCaptured(["requests", PI_SESSION, "--profile", "senpi"]);
    expect([on.code, off.code, plain.code]).toEqual([0, 0, 0]);
    expect(off.stdout).not.toContain("Reply language: ");
    // Default is off: identical output.
    expect(plain.stdout).toBe(off.stdout);

    const onTurns = turns(on.lines);
    expect(onTurns).toHaveLength(15);
    // Turns 9 and 13 follow the two compactions: their summaries carry the note (the user asked for English).
    for (const turn of [9, 13]) {
      const summary = JSON.stringify(onTurns[turn - 1]!.request.messages[1]);
      expect(summary).toMatch(/<\/summary>\\n\\nReply language: English \(the user asked for it\)/);
    }
    // Turns without compaction: the earlier request's messages are a prefix of the later one's.
    for (let t = 2; t <= 15; t++) {
      if (t === 9 || t === 13) continue;
      const before = onTurns[t - 2]!.request.messages.map((m) => JSON.stringify(m));
      const after = onTurns[t - 1]!.request.messages.map((m) => JSON.stringify(m));
      expect(after.slice(0, before.length), `turn ${t}`).toEqual(before);
    }
    expect(onTurns.some((t) => noteCount(t.request.messages) > 0)).toBe(true);
    // Notes off: no turn holds a note or a carrier.
    expect(turns(off.lines).every((t) => noteCount(t.request.messages) === 0)).toBe(true);
  });

  it("the pi profile ignores --notes on", async () => {
    const on = await runCliCaptured(["requests", PI_SESSION, "--notes", "on"]);
    const off = await runCliCaptured(["requests", PI_SESSION]);
    expect(on.code).toBe(0);
    expect(on.stdout).toBe(off.stdout);
  });

  it("--notes takes only on or off", async () => {
    const run = await runCliCaptured(["requests", PI_SESSION, "--notes", "yes"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/--notes must be one of on, off/);
  });
});

describe("requests --profile senpi", () => {
  it("the recorded senpi run: with its first request as header, every turn's messages equal the recorded main requests", async () => {
    const mains = SENPI.requests("main").map((request) => request.body as { messages: unknown[] });
    const run = await runCliCaptured(["requests", SENPI_SESSION, "--profile", "senpi", "--header", SENPI.requestPath(1)]);
    expect(run.code).toBe(0);
    const rebuilt = turns(run.lines);
    expect(rebuilt).toHaveLength(mains.length);
    rebuilt.forEach((line, index) => expect(line.request.messages, `turn ${line.turn}`).toEqual(mains[index]!.messages));
    expect(run.lines.filter((l) => l.kind === "compaction").length).toBeGreaterThan(0);
  });

  it("without --profile, a senpi file is rebuilt in its own profile: its notes are senpi's, not ignored as pi ignores them", async () => {
    const plain = await runCliCaptured(["requests", SENPI_SESSION, "--notes", "on"]);
    const senpi = await runCliCaptured(["requests", SENPI_SESSION, "--notes", "on", "--profile", "senpi"]);
    const asPi = await runCliCaptured(["requests", SENPI_SESSION, "--notes", "on", "--profile", "pi"]);
    expect([plain.code, senpi.code, asPi.code]).toEqual([0, 0, 0]);
    expect(plain.stdout).toBe(senpi.stdout);
    expect(turns(plain.lines).some((t) => noteCount(t.request.messages) > 0)).toBe(true);
    expect(turns(asPi.lines).every((t) => noteCount(t.request.messages) === 0)).toBe(true);
  });
});

describe("every command that takes a profile defaults to the session's own", () => {
  it.each([
    ["prefix", []],
    ["check", []],
    ["share", ["--turn", "9"]],
    ["compact", ["--policy", "pi", "--turn", "9"]],
  ])("%s on a senpi file: the same output as with --profile senpi", async (command, extra) => {
    const plain = await runCliCaptured([command, SENPI_SESSION, ...extra]);
    const senpi = await runCliCaptured([command, SENPI_SESSION, ...extra, "--profile", "senpi"]);
    expect(plain.code).toBe(senpi.code);
    expect(plain.stdout).toBe(senpi.stdout);
  });
});

describe("requests --leaf", () => {
  it("shows the branch ending at the given entry: fewer turns, the same requests up to there", async () => {
    const all = await runCliCaptured(["requests", PI_SESSION]);
    const entries = readFileSync(PI_SESSION, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as { type: string; id?: string; message?: { role: string } });
    const assistants = entries.filter((e) => e.type === "message" && e.message?.role === "assistant");
    const fifth = assistants[4]!.id!;
    const run = await runCliCaptured(["requests", PI_SESSION, "--leaf", fifth]);
    expect(run.code).toBe(0);
    expect(turns(run.lines).map((l) => l.turn)).toEqual([1, 2, 3, 4, 5]);
    expect(turns(run.lines)).toEqual(turns(all.lines).slice(0, 5));
    const missing = await runCliCaptured(["requests", PI_SESSION, "--leaf", "no-such-entry"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/--leaf no-such-entry is not an entry/);
  });
});

describe("share names the session's own profile", () => {
  it("a senpi file's link without --profile reopens in senpi, one with --profile pi in pi", async () => {
    const plain = await runCliCaptured(["share", SENPI_SESSION, "--turn", "9"]);
    const asPi = await runCliCaptured(["share", SENPI_SESSION, "--turn", "9", "--profile", "pi"]);
    expect([plain.code, asPi.code]).toEqual([0, 0]);
    expect(plain.stdout).not.toBe(asPi.stdout);
  });
});
