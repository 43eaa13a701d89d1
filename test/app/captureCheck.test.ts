// Matching captures to turns and classing each differing path (not derivable, learnt from another
// capture, bug), on the committed Codex case.
import { describe, expect, it } from "vitest";
import { checkCaptures, matchCaptureTurns } from "../../src/app/captureCheck";
import { learnCapture } from "../../src/core/session/captures";
import type { PipelineOptions } from "../../src/core/model";
import { fixtureCase } from "../support/fixtures";

const fixture = fixtureCase("codex/exec-autocompact");
const mains = fixture.requests("main");
const first = mains[0]!;

describe("capture check", () => {
  const options: PipelineOptions = { profile: "pi", header: learnCapture(first.body, first.file) };

  it("matches a capture to its turn by its conversation, wherever it sits in the list", () => {
    const picked = [mains[6]!, mains[2]!].map((request) => ({ source: request.file, body: request.body as unknown }));
    expect(matchCaptureTurns(fixture.session, options, picked)).toEqual([7, 3]);
  });

  it("pairs a capture whose conversation departs from every rebuild with the next free turn of the same shape, in send order", () => {
    const edited = mains.slice(3, 6).map((request) => ({ source: request.file, body: structuredClone(request.body) as { input: { content?: { text?: string }[] }[] } }));
    // The middle capture's first user message edited: no rebuilt turn carries it any more.
    const block = edited[1]!.body.input.find((item) => Array.isArray(item.content) && typeof item.content[0]?.text === "string")!.content![0]!;
    block.text = `${block.text} (edited)`;
    expect(matchCaptureTurns(fixture.session, options, edited)).toEqual([4, 5, 6]);
    // A capture with a shape no free turn has stays unmatched.
    const shorter = { source: "short.json", body: { ...(mains[4]!.body as object), input: (mains[4]!.body as { input: unknown[] }).input.slice(0, 2) } };
    expect(matchCaptureTurns(fixture.session, options, [shorter])).toEqual([null]);
  });

  it("classes the turn start time not derivable, with its reason", () => {
    const [result] = checkCaptures(fixture.session, options, [{ source: mains[4]!.file, body: mains[4]!.body }]);
    expect(result!.turn).toBe(5);
    expect(result!.differences.map((d) => [d.path, d.class])).toEqual([['$.client_metadata["x-codex-turn-metadata"]<json>.turn_started_at_unix_ms', "not derivable"]]);
    expect(result!.differences[0]!.reason).toContain("whole seconds");
  });

  it("a session constant learnt from another capture that this capture contradicts is named with its source", () => {
    const body = structuredClone(mains[1]!.body) as { tools: { name?: string }[] };
    body.tools[0]!.name = "renamed";
    const [result] = checkCaptures(fixture.session, options, [{ source: "other.json", body }]);
    const tools = result!.differences.find((d) => d.path.startsWith("$.tools"))!;
    expect(tools.class).toBe("learnt from another capture");
    expect(tools.reason).toContain("001.json");
  });

  it("anything else that differs is a bug", () => {
    const body = structuredClone(mains[1]!.body) as { store: boolean };
    body.store = true;
    const [result] = checkCaptures(fixture.session, options, [{ source: "x.json", body }]);
    expect(result!.differences.find((d) => d.path === "$.store")!.class).toBe("bug");
  });

  it("without a capture, the fields a capture supplies are not derivable", () => {
    const [result] = checkCaptures(fixture.session, { profile: "pi" }, [{ source: first.file, body: first.body }]);
    const classes = new Set(result!.differences.map((d) => d.class));
    expect(classes).toEqual(new Set(["not derivable"]));
    expect(result!.differences.some((d) => d.path.startsWith("$.tools"))).toBe(true);
  });
});
