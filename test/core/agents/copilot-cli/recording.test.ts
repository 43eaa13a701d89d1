// The rebuilt requests of a recording made with the real Copilot CLI 1.0.102 (BYOK, offline,
// against a local Chat Completions server; test/fixtures/copilot-cli/recording-1.0.102/README.md)
// against the bodies it sent: the system prompt and every message equal, the model equal, the tool
// list and the request parameters marked not recorded (the log has neither) — and, with the first
// request dropped as a capture, the whole of every body equal to the wire. The usage is what the
// server reported for each call, and the session totals are the last shutdown's (1.0.102's second
// shutdown counts the first run too).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readSessionText } from "../../../../src/core/session/index";
import { analyzeSession, buildTurnRequest, countTurns } from "../../../../src/core/session/pipeline";
import { sessionUsageTotals } from "../../../../src/core/session/storage";
import { extractRequestHeader } from "../../../../src/core/providers/index";

const DIR = path.join(__dirname, "../../../fixtures/copilot-cli/recording-1.0.102");
const session = () => readSessionText(readFileSync(path.join(DIR, "events.jsonl"), "utf8"), "events.jsonl")!;
const recorded = (n: number) => JSON.parse(readFileSync(path.join(DIR, "requests", `00${n}.json`), "utf8")) as Record<string, unknown>;

describe("Copilot CLI 1.0.102 recording", () => {
  it("has one turn per request sent, each with the usage the server reported", () => {
    const s = session();
    expect(s.warnings).toEqual([]);
    expect(countTurns(s, {})).toBe(3);
    // prompt_tokens 1200 with 1000 cached, completion_tokens 8, as the server answered each call.
    for (const turn of analyzeSession(s, {}).turns) expect(turn.usage).toEqual({ input: 200, output: 8, cacheRead: 1000, cacheWrite: 0, totalTokens: 1208 });
  });

  it("rebuilds every message of every request equal to the recorded body", () => {
    for (const n of [1, 2, 3]) {
      const built = buildTurnRequest(session(), {}, n);
      const body = recorded(n);
      expect(built.body.messages).toEqual(body.messages);
      expect(built.body.model).toBe(body.model);
      expect(built.body.stream).toBe(body.stream);
      // What the log does not hold stays a marker, and the request says it is approximated.
      expect(built.body.tools).toEqual({ $notRecorded: "Copilot CLI's tool definitions" });
      expect(Array.isArray(body.tools) && body.tools.length).toBe(17);
      expect(built.notRecorded[0]).toMatch(/^approximated:/);
    }
  });

  it("with the first request as a capture, rebuilds every request's whole body equal to the wire", () => {
    const header = extractRequestHeader(recorded(1), "001.json");
    for (const n of [1, 2, 3]) {
      const built = buildTurnRequest(session(), { header }, n);
      expect(JSON.stringify(built.body)).toBe(JSON.stringify(recorded(n)));
      expect(built.notRecorded).toEqual([built.notRecorded[0]]);
    }
  });

  it("prices the session from the last shutdown when it counts the resumed run too", () => {
    expect(sessionUsageTotals(session())).toEqual([
      expect.objectContaining({ usage: { input: 600, output: 24, cacheRead: 3000, cacheWrite: 0, totalTokens: 3624 }, model: { provider: "openai", modelId: "gpt-4.1" } }),
    ]);
  });
});
