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

type Json = Record<string, unknown>;
const PLAIN = "20261201_090624_3e9952";

function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(",")}]`;
  if (value && typeof value === "object") {
    const object = value as Json;
    return `{${Object.keys(object).sort().map((key) => `${JSON.stringify(key)}:${sortedJson(object[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The body hermes sends for the first `count` snapshot messages (Claude via OpenRouter). */
function specBody(snapshot: Json, count: number): Json {
  const marker = { type: "ephemeral" };
  const api = (snapshot.messages as Json[]).slice(0, count).map((message) => {
    const copy: Json = { ...message };
    if (copy.role === "assistant" && copy.reasoning) copy.reasoning_content = copy.reasoning;
    delete copy.reasoning;
    delete copy.finish_reason;
    return copy;
  });
  let messages: Json[] = [{ role: "system", content: snapshot.system_prompt }, ...api];
  const mark = (message: Json): Json => {
    if (message.role === "tool" || message.content === "" || message.content === null) return { ...message, cache_control: marker };
    return { ...message, content: [{ type: "text", text: message.content, cache_control: marker }] };
  };
  messages = messages.map((message, index) => (index === 0 || index >= messages.length - 3 ? mark(message) : message));
  messages = messages.map((message) => {
    const out: Json = { ...message };
    if (typeof out.content === "string") out.content = out.content.trim();
    if (Array.isArray(out.tool_calls)) {
      out.tool_calls = (out.tool_calls as Json[]).map((call) => {
        const fn = call.function as Json;
        return { ...call, function: { ...fn, arguments: sortedJson(JSON.parse(fn.arguments as string)) } };
      });
    }
    return out;
  });
  return { model: snapshot.model, messages, tools: snapshot.tools, max_tokens: 16384, extra_body: { reasoning: { enabled: true } } };
}

function dumpFile(snapshot: Json, body: Json): Json {
  return {
    timestamp: "2026-12-01T09:06:24.490000",
    session_id: snapshot.session_id,
    reason: "preflight",
    request: { method: "POST", url: `${String(snapshot.base_url)}/chat/completions`, headers: { Authorization: "Bearer sk-or-v1…masked", "Content-Type": "application/json" }, body },
  };
}

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
});
