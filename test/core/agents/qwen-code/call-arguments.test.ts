// The view of a Qwen Code function call (request.ts) shows its arguments as the `arguments` JSON
// of its wire message parses back: the record's own `args` where that is the same value, made
// neither as JSON nor parsed again per call, and the parsed JSON where it is not (numbers JSON
// cannot write) or where the args are not an object.
import { describe, expect, it } from "vitest";
import type { Session } from "../../../../src/core/model";
import { readSessionText } from "../../../../src/core/session/index";
import { buildTurnRequest } from "../../../../src/core/session/pipeline";

const base = { sessionId: "s-1", cwd: "/w", version: "0.24.4" };
const usage = { promptTokenCount: 100, candidatesTokenCount: 5, thoughtsTokenCount: 0, totalTokenCount: 105 };

/** A chat of one prompt, one answer per call in `calls` (raw JSON of each call's `args`) each followed by its tool result, and a last answer. */
function chat(calls: string[]): string {
  const lines = [JSON.stringify({ ...base, uuid: "u0", parentUuid: null, timestamp: "2026-01-01T00:00:00Z", type: "user", provenance: "real_user", message: { role: "user", parts: [{ text: "go" }] } })];
  calls.forEach((args, i) => {
    const call = `{"functionCall":{"id":"c${i}","name":"run","args":${args}}}`;
    const answer = { ...base, uuid: `a${i}`, parentUuid: null, timestamp: "2026-01-01T00:00:01Z", type: "assistant", provenance: "assistant_output", model: "m1", message: { role: "model", parts: ["CALL"] }, usageMetadata: usage };
    lines.push(JSON.stringify(answer).replace('"CALL"', call));
    const result = { ...base, uuid: `r${i}`, parentUuid: null, timestamp: "2026-01-01T00:00:02Z", type: "tool_result", provenance: "tool_result", message: { role: "user", parts: [{ functionResponse: { id: `c${i}`, name: "run", response: { output: "ok" } } }] } };
    lines.push(JSON.stringify(result));
  });
  // A last answer, whose request holds every call.
  lines.push(JSON.stringify({ ...base, uuid: "end", parentUuid: null, timestamp: "2026-01-01T00:00:03Z", type: "assistant", provenance: "assistant_output", model: "m1", message: { role: "model", parts: [{ text: "done" }] }, usageMetadata: usage }));
  return lines.join("\n") + "\n";
}

/** The arguments of the views of the last turn's calls, in order, with the wire's `arguments` strings. */
function calls(session: Session): { view: unknown; wire: string }[] {
  const built = buildTurnRequest(session, {}, session.entries.filter((entry) => entry.type === "assistant").length);
  const wires = (built.body.messages as Record<string, unknown>[]).flatMap((message) => (Array.isArray(message.tool_calls) ? message.tool_calls : []));
  const views = built.messages.flatMap((context) => {
    const content = (context.message as { content?: unknown }).content;
    return Array.isArray(content) ? content.filter((block) => block.type === "toolCall") : [];
  });
  expect(views.length).toBe(wires.length);
  return views.map((block, i) => ({ view: block.arguments, wire: String(wires[i].function.arguments) }));
}

describe("Qwen Code function call views", () => {
  const argsCases = ['{"command":"ls -la","n":3,"deep":{"list":[1,"two",null,true]}}', '{"big":1e999,"negativeZero":-0,"s":"x"}', '"not an object"', "[1,2]", "null", "{}"];

  it("show the arguments their wire message's JSON parses back to", () => {
    const session = readSessionText(chat(argsCases), "chat.jsonl")!;
    const found = calls(session);
    expect(found.length).toBe(argsCases.length);
    for (const { view, wire } of found) {
      const parsed: unknown = JSON.parse(wire);
      expect(view).toEqual(typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? parsed : {});
    }
    // Numbers JSON cannot write come back as it writes them.
    expect(found[1]!.view).toEqual({ big: null, negativeZero: 0, s: "x" });
    expect(Object.is((found[1]!.view as { negativeZero: number }).negativeZero, 0)).toBe(true);
  });

  it("take the record's own args object where it is that value", () => {
    const session = readSessionText(chat(argsCases), "chat.jsonl")!;
    const found = calls(session);
    const answer = session.entries.find((entry) => entry.id === "a0")!;
    const args = ((answer.raw.message as { parts: { functionCall: { args: unknown } }[] }).parts[0]!.functionCall.args);
    expect(found[0]!.view).toBe(args);
  });
});
