// verifySession on the committed pi Anthropic recording: facts come from the first capture of each
// model only, so a capture that departs from the first (its system prompt edited here) is reported
// as differing where it departs — its own text is never taken for the rebuild — and the first
// capture of a second model teaches too.
import { describe, expect, it } from "vitest";
import { verifiedHeadline, verifySession, type VerifyCapture } from "../../src/app/captureVerify";
import { fixtureCase } from "../support/fixtures";

const fixture = fixtureCase("pi/rpc-anthropic-manualcompact");

function captures(): VerifyCapture[] {
  return fixture.requests().map((request) => ({ source: request.file, body: structuredClone(request.body) as unknown, kind: request.kind }));
}

describe("verifySession", () => {
  it("every main request of the recording is equal; the first teaches", () => {
    const results = verifySession(fixture.session, { profile: "pi" }, captures());
    const mains = results.filter((result) => result.kind === "main");
    expect(mains.map((result) => result.verdict)).toEqual(mains.map(() => "equal"));
    expect(results.filter((result) => result.teaches).map((result) => result.source)).toEqual(["001.json"]);
    expect(verifiedHeadline(results).text).toBe("15 of 15 turns equal to the wire");
  });

  it("a later capture's own system prompt is not learnt: it differs there, named", () => {
    const edited = captures();
    const seventh = edited.find((capture) => capture.source === "007.json")!.body as { system: { text: string }[] };
    seventh.system[0]!.text = `${seventh.system[0]!.text} (edited)`;
    const result = verifySession(fixture.session, { profile: "pi" }, edited).find((item) => item.source === "007.json")!;
    expect(result.verdict).toBe("differs");
    expect(result.difference?.part).toMatch(/^system/);
    expect(result.difference?.wire.join("\n")).toContain("(edited)");
  });

  it("the first capture of each model teaches", () => {
    const switched = captures();
    for (const capture of switched.filter((item) => Number(item.source.slice(0, 3)) >= 5)) (capture.body as { model: string }).model = "second-model";
    const results = verifySession(fixture.session, { profile: "pi" }, switched);
    expect(results.filter((result) => result.teaches).map((result) => result.source)).toEqual(["001.json", "005.json"]);
  });
});
