// deepseek-harness 0.1.0-rc.8 on our own recording (test/fixtures/deepseek-harness/drift-resumed:
// the drift harness drove `dsh --profile headless` through `contextscope capture`, one process per
// prompt, each resuming the session): every main request rebuilt from the session file equals the
// recorded requests/NNN.json, the title request and both successful compactions' summariser
// requests too (the instruction learnt from the first summariser capture). The automatic
// compaction's second attempt failed on the shrink guard: the harness logs neither its range nor
// its output, so its captured request (011) pairs with no row — and does not take the /compact
// row from the capture that equals it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Session } from "../../../../src/core/model";
import { verifiedHeadline, verifySession, type VerifyCapture } from "../../../../src/app/captureVerify";
import { headRole } from "../../../../src/core/intake/index";
import { readSessionBytes } from "../../../../src/core/session/index";
import { analyzeSession, countTurns } from "../../../../src/core/session/pipeline";
import { findSessionFile, fixturePath, recordedCaptures } from "../../../support/fixtures";

const CASE = fixturePath("deepseek-harness/drift-resumed");
const REQUESTS = path.join(CASE, "requests");
/** The failed automatic attempt's request: made, but not in the log. */
const FAILED_ATTEMPT = "011.json";

async function read(): Promise<Session> {
  const bytes = readFileSync(findSessionFile(path.join(CASE, "session"), ".jsonl.zstd"));
  const role = headRole(bytes);
  if (role.kind !== "compressed") throw new Error("the recorded artifact is not compressed");
  await role.container.loadDecoder();
  const decoder = new TextDecoder();
  return readSessionBytes(bytes, "session.jsonl.zstd", (line) => decoder.decode(line));
}

const captures = (): VerifyCapture[] => recordedCaptures(REQUESTS);

describe("deepseek-harness recording, resumed by ten processes", () => {
  let session: Session;
  beforeAll(async () => {
    session = await read();
  });

  it("opens as deepseek-harness with no warning and one turn per main request", () => {
    expect(session.formatId).toBe("deepseek-harness");
    expect(session.header).toMatchObject({ id: "session-afd4e181-894d-4872-8eaf-424c1d071c6f", cwd: "/tmp/drift-deepseek-harness-eKvGJB/lighthouse-notes" });
    expect(session.warnings).toEqual([]);
    expect(countTurns(session, {})).toBe(15);
  });

  it("holds the nine resumptions: each a session/end-seed, and a request header with reason resume where the process sent a conversation request (not the /compact one)", () => {
    const types = session.entries.map((entry) => (entry.raw as { type?: string }).type);
    expect(types.filter((type) => type === "session/end-seed")).toHaveLength(9);
    const reasons = session.entries.filter((entry) => (entry.raw as { type?: string }).type === "request/header").map((entry) => (entry.raw as { data: { reason: string } }).data.reason);
    expect(reasons).toEqual(["initial", ...Array<string>(8).fill("resume")]);
  });

  it("every main request, the title request and both summariser requests equal the wire", () => {
    const results = verifySession(session, {}, captures());
    const mains = results.filter((result) => result.kind === "main");
    expect(mains).toHaveLength(15);
    expect(mains.map((result) => `${result.source} ${result.verdict}`)).toEqual(mains.map((result) => `${result.source} equal`));
    const others = results.filter((result) => result.kind !== "main").map((result) => `${result.source} ${result.kind} ${result.verdict} ${result.auxiliary}`);
    expect(others).toEqual(["002.json title equal 0", "010.json summary equal 1", `${FAILED_ATTEMPT} summary unmatched null`, "017.json summary equal 2"]);
    expect(results.find((result) => result.source === "010.json")!.teaches).toBe(true);
    expect(verifiedHeadline(results).text).toBe("15 of 15 turns equal to the wire");
  });

  it("the automatic compaction, its failed second attempt and the /compact are timeline rows", () => {
    const analysis = analyzeSession(session, {});
    const compactions = analysis.timeline.filter((item) => item.kind === "compaction");
    expect(compactions.map((item) => [item.beforeTurn, "failed" in item ? item.failed : null])).toEqual([
      [9, null],
      [9, "summary is not smaller than the shadowed content (173 estimated framed tokens >= 173)"],
      [14, null],
    ]);
    expect(analysis.auxiliary?.map((event) => [event.purpose, event.beforeTurn, event.label])).toEqual([
      ["title", 1, "Session title request"],
      ["summary", 9, "Compaction request"],
      ["summary", 14, "Compaction request (/compact)"],
    ]);
  });
});
