// Kilo Code CLI 7.7.7 on our own recording (test/fixtures/kilo/run-autocompact: the drift harness
// drove `kilo run` through `contextscope capture`): the kilo.db is told from an opencode.db by its
// tables, every main request rebuilt from it equals the recorded requests/NNN.json byte for byte
// (system prompt and tools learnt from the first capture only), the automatic compaction is a
// timeline event whose summariser request equals its capture, and the request after it carries
// the replayed prompt and Kilo's `<environment_details>` blocks, which the database does not hold; the
// simulator's Kilo policy, on the stored rows and their recorded tokens, fires where Kilo compacted.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { recordedCaptures } from "../../../support/fixtures";
import { verifiedHeadline, verifySession, type VerifyCapture } from "../../../../src/app/captureVerify";
import { loadDatabase } from "../../../../src/cli/sqlite";
import { recordReport } from "../../../../src/core/session/recordReport";
import { analyzeSession, countTurns } from "../../../../src/core/session/pipeline";
import { isKiloDatabase } from "../../../../src/core/agents/kilo/database";
import { simulateCompaction } from "../../../../src/core/session/simulate/simulate";

const CASE = path.join(__dirname, "../../../fixtures/kilo/run-autocompact");
const DB = path.join(CASE, "session/kilo.db");
const REQUESTS = path.join(CASE, "requests");

const captures = (): VerifyCapture[] => recordedCaptures(REQUESTS);

describe("Kilo Code CLI recording", () => {
  it("kilo.db is Kilo's by its own tables; opencode's tables alone are not", async () => {
    expect(isKiloDatabase(["session", "message", "part", "kilo_board", "event"])).toBe(true);
    expect(isKiloDatabase(["session", "message", "part", "project"])).toBe(false);
    const session = await loadDatabase(DB);
    expect(session.formatId).toBe("kilo");
    expect(session.warnings.filter((warning) => !warning.notice)).toEqual([]);
    expect(recordReport(session)).toMatchObject({ agent: "Kilo", versions: ["7.7.7"], unknown: [], newerThanVerified: [] });
  });

  it("every main request and the summariser request equal the wire", async () => {
    const session = await loadDatabase(DB);
    const all = captures();
    const results = verifySession(session, {}, all);
    const mains = results.filter((result) => result.kind === "main");
    expect(mains.length).toBe(all.filter((capture) => capture.kind === "main").length);
    expect(mains.map((result) => `${result.source} ${result.verdict}`)).toEqual(mains.map((result) => `${result.source} equal`));
    // The system prompt and tools come from the first main capture only; the summariser's fixed
    // texts (its template) from the one summariser capture, as for opencode.
    expect(mains.filter((result) => result.teaches).map((result) => result.source)).toEqual([mains[0]!.source]);
    const summaries = results.filter((result) => result.kind === "summary");
    expect(summaries.map((result) => result.verdict)).toEqual(["equal"]);
    expect(verifiedHeadline(results).text).toBe(`${countTurns(session, {})} of ${countTurns(session, {})} turns equal to the wire`);
  });

  it("the compaction is an event; the request after it replays the prompt, each user message with its environment block", async () => {
    const session = await loadDatabase(DB);
    const analysis = analyzeSession(session, {});
    const compactions = analysis.timeline.filter((item) => item.kind === "compaction");
    expect(compactions).toHaveLength(1);
    const after = (compactions[0] as { beforeTurn: number }).beforeTurn;
    const request = captures().filter((capture) => capture.kind === "main")[after - 1]!.body as { messages: { role: string; content: unknown }[] };
    const users = request.messages.filter((message) => message.role === "user");
    expect((users[0]!.content as { text: string }[])[0]!.text).toBe("What did we do so far?");
    expect(users.every((message) => (message.content as { text: string }[]).at(-1)!.text.startsWith("\n\n<environment_details>\nMessage time: "))).toBe(true);
    expect(JSON.stringify(request.messages)).toContain("The active agent has changed from compaction to code");
  });

  it("the Kilo policy fires where Kilo compacted: after the response that reported 38,000 tokens, window 40,000, output 4,000", async () => {
    const session = await loadDatabase(DB);
    const fired: number[] = [];
    for (let turn = 1; turn <= countTurns(session, {}); turn++) {
      const result = simulateCompaction({ session, options: {}, turn, policyId: "kilo", limits: { contextWindow: 40000, maxOutputTokens: 4000 } });
      expect(result.policyId).toBe("kilo");
      expect(result.trigger.right).toBe(36000);
      if (result.trigger.result) fired.push(turn);
    }
    expect(fired).toEqual([8]);
  });
});
