// A share link made with a request header attached reopens in the same build: the header learnt
// from a real captured request of every agent (its model and the facts it teaches included), and
// an arbitrary header holding every field of RequestHeader, decode to what was encoded.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { RequestHeader } from "../../../src/core/model";
import { learnCapture } from "../../../src/core/session";
import { buildSharePayload, decodeShareLink, encodeShareFragment } from "../../../src/core/share";
import { fixtureCase } from "../../support/fixtures";
import { headerArb, samplePayload } from "./helpers";


const CASES = ["claude/print-autocompact-manualcompact", "codex/exec-autocompact", "opencode/run-autocompact", "pi/print-openai-autocompact", "senpi/print-openai-autocompact"];

describe("share link with a request header", () => {
  it.each(CASES)("reopens with the header learnt from a capture of %s", (id) => {
    const fixture = fixtureCase(id);
    const request = fixture.requests()[0]!;
    const header = learnCapture(request.body, request.file);
    // The learnt header carries the fields an older validator did not know.
    expect(header.model, "the capture names its model").toEqual(expect.any(String));
    const payload = samplePayload({ header });
    const result = decodeShareLink(encodeShareFragment(payload));
    expect(result).toEqual({ ok: true, version: 2, payload });
  });

  it("reopens a link built (and redacted) from a real session with a learnt header", () => {
    const fixture = fixtureCase("pi/print-openai-autocompact");
    const session = fixture.session;
    const request = fixture.requests()[0]!;
    const header = learnCapture(request.body, request.file);
    const view = { turn: 1, tab: "request", profile: "pi" as const, provider: null, notes: false, leafId: null, header };
    const { payload } = buildSharePayload({ session, view, scope: "full" });
    const result = decodeShareLink(encodeShareFragment(payload));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.payload.view.header?.model).toBe(header.model);
  });


  it("round trips every field of a request header", () => {
    fc.assert(
      fc.property(headerArb, (header) => {
        // JSON has no -0; a header is JSON data, so compare with what JSON makes of it.
        const expected = samplePayload({ header: JSON.parse(JSON.stringify(header)) as RequestHeader });
        expect(decodeShareLink(encodeShareFragment(expected))).toEqual({ ok: true, version: 2, payload: expected });
      }),
      { numRuns: 200 },
    );
  });
});
