// The walk of every Gemini CLI turn's request follows what the analysis already converted (each
// turn's new contents and context messages): after an analysis, walking every request reads no
// message of the chat again, and its requests are the ones a walk of a chat never analysed makes,
// also when single turns were built first, in any order (the walk then takes those turns from
// their history again).
import { describe, expect, it } from "vitest";
import type { Session } from "../../../../src/core/model";
import { readSessionText } from "../../../../src/core/session/index";
import { analyzeSession, buildTurnContext, buildTurnRequest } from "../../../../src/core/session/pipeline";
import { iterateTurnRequests } from "../../../../src/core/session/turnRequests";

const meta = { sessionId: "s1", projectHash: "p".repeat(64), startTime: "2026-12-03T09:00:00.000Z", lastUpdated: "2026-12-03T09:00:00.000Z", kind: "main" };
const TURNS = 12;
const lines = [JSON.stringify(meta)];
const at = "2026-12-03T09:00:01.000Z";
const tokens = (i: number) => ({ input: 10 * i, output: 1, cached: 0, thoughts: 0, tool: 0, total: 10 * i + 1 });
for (let i = 1; i <= TURNS; i++) {
  lines.push(JSON.stringify({ id: `u${i}`, timestamp: at, type: "user", content: [{ text: `prompt ${i}` }] }));
  if (i % 3 === 0) {
    // A tool loop: the answer calls a tool, its result is sent back, a second answer ends the prompt.
    lines.push(JSON.stringify({ id: `g${i}`, timestamp: at, type: "gemini", content: "", toolCalls: [{ id: `read_file__c${i}`, name: "read_file", args: { file_path: `f${i}` }, result: `text of f${i}` }], tokens: tokens(i), model: "gemini-2.5-flash" }));
    lines.push(JSON.stringify({ id: `r${i}`, timestamp: at, type: "user", content: [{ functionResponse: { id: `read_file__c${i}`, name: "read_file", response: { output: `text of f${i}` } } }] }));
    lines.push(JSON.stringify({ id: `h${i}`, timestamp: at, type: "gemini", content: `done ${i}`, tokens: tokens(i), model: "gemini-2.5-flash" }));
  } else {
    lines.push(JSON.stringify({ id: `g${i}`, timestamp: at, type: "gemini", content: `answer ${i}`, tokens: tokens(i), model: "gemini-2.5-flash" }));
  }
  // An answer written again in place (the fold copies the list the earlier turns hold).
  if (i === 5) lines.push(JSON.stringify({ id: `g${i}`, timestamp: at, type: "gemini", content: `answer ${i}, rewritten`, tokens: tokens(i), model: "gemini-2.5-flash" }));
}
const jsonl = lines.join("\n");

function chat(): Session {
  return readSessionText(jsonl, "session-2026-12-03T09-00-s1.jsonl")!;
}

/** The chat with every message record's `content` counted when read. */
function countedChat(): { session: Session; reads: () => number } {
  const session = chat();
  let reads = 0;
  for (const entry of session.entries) {
    const raw = entry.raw as Record<string, unknown>;
    if (!("content" in raw)) continue;
    const content = raw.content;
    Object.defineProperty(raw, "content", {
      enumerable: true,
      get: () => {
        reads++;
        return content;
      },
    });
  }
  return { session, reads: () => reads };
}

/** Each request as JSON, read while it is the current one (a walk with reused lists changes them after). */
function walked(session: Session, reuseRequestLists: boolean): string[] {
  const requests: string[] = [];
  for (const { request } of iterateTurnRequests(session, {}, { reuseRequestLists })) requests.push(JSON.stringify({ body: request.body, messages: request.messages }));
  return requests;
}

describe("the Gemini CLI request walk after an analysis", () => {
  it("reads no message of the chat again: each turn's new contents come from the analysis", () => {
    for (const reuse of [false, true]) {
      const { session, reads } = countedChat();
      const analysis = analyzeSession(session, {});
      expect(analysis.turns).toHaveLength(TURNS + TURNS / 3);
      const afterAnalysis = reads();
      expect(afterAnalysis).toBeGreaterThan(0);
      const requests = walked(session, reuse);
      expect(requests).toHaveLength(TURNS + TURNS / 3);
      expect(reads()).toBe(afterAnalysis);
    }
  });

  it("makes the requests of a walk of a chat never analysed", () => {
    const fresh = walked(chat(), false);
    const analysed = chat();
    analyzeSession(analysed, {});
    expect(walked(analysed, true)).toEqual(fresh);
    expect(walked(analysed, false)).toEqual(fresh);
  });

  it("makes the same requests when single turns were built first, out of order", () => {
    const fresh = walked(chat(), false);
    const session = chat();
    for (const turn of [7, 2, 12, 3, 16, 1]) {
      expect(JSON.stringify(buildTurnRequest(session, {}, turn).body)).toBe(JSON.stringify(JSON.parse(fresh[turn - 1]!).body));
      expect(JSON.stringify(buildTurnContext(session, {}, turn).messages)).toBe(JSON.stringify(JSON.parse(fresh[turn - 1]!).messages));
    }
    analyzeSession(session, {});
    expect(walked(session, true)).toEqual(fresh);
    // Single turns built again after the analysis: from the marks, or from their history.
    for (const turn of [4, 5, 6, 15, 2]) expect(JSON.stringify(buildTurnRequest(session, {}, turn).body)).toBe(JSON.stringify(JSON.parse(fresh[turn - 1]!).body));
    expect(walked(session, false)).toEqual(fresh);
  });
});

describe("the parts a Gemini CLI request sends", () => {
  it("are the file's own part objects when nothing in them changes (a text), a new part when an id loses its prefix", () => {
    const session = chat();
    const prompt = session.entries.find((entry) => (entry.raw as Record<string, unknown>).id === "u1")!.raw as { content: object[] };
    const contents = buildTurnRequest(session, {}, 6).body.contents as { parts: Record<string, unknown>[] }[];
    expect(contents[0]!.parts[0]).toBe(prompt.content[0]);
    const call = contents.find((content) => content.parts.some((part) => "functionCall" in part))!.parts[0]!;
    expect(call.functionCall).toEqual({ id: "c3", args: { file_path: "f3" }, name: "read_file" });
  });
});
