// Every view option a share link carries reopens as it was made: turn, centre tab, profile,
// provider shape, notes, branch leaf, the simulator's settings, the request header learnt from a
// capture (its model and facts) and the summariser instruction texts taken from captured
// compaction requests — over arbitrary values of each (property), through the app's buildShare
// on a real session for every profile and provider, and with redaction masking a secret in the
// captured texts without dropping them.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildShare, sessionFromPayload } from "../../../src/app/shareExport";
import { API_IDS } from "../../../src/core/model";
import { PROFILE_IDS } from "../../../src/core/session/agents";
import { learnCapture } from "../../../src/core/session";
import { analyzeSession } from "../../../src/core/session/pipeline";
import { buildSharePayload, decodeShareLink, encodeShareFragment } from "../../../src/core/share";
import type { ShareViewV1 } from "../../../src/core/share/payload-v1";
import { fixtureCase } from "../../support/fixtures";
import { headerArb, samplePayload } from "./helpers";


const instructionsArb = fc.record(
  {
    summarizationSystemPrompt: fc.string(),
    initialPrompt: fc.string(),
    updatePrompt: fc.string(),
    turnPrefixPrompt: fc.string(),
    sources: fc.array(fc.string({ maxLength: 40 }), { maxLength: 3 }),
  },
  { requiredKeys: [] },
);
const simulationArb = fc.dictionary(
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,20}$/),
  fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null)),
  { maxKeys: 8 },
);
const viewArb: fc.Arbitrary<ShareViewV1> = fc.record(
  {
    turn: fc.option(fc.integer({ min: 1, max: 10_000_000 })),
    tab: fc.stringMatching(/^[a-z][a-z0-9-]{0,31}$/),
    profile: fc.constantFrom(...PROFILE_IDS),
    provider: fc.option(fc.constantFrom(...API_IDS)),
    notes: fc.boolean(),
    leafId: fc.option(fc.string({ maxLength: 256 })),
    simulation: fc.option(simulationArb),
    header: fc.option(headerArb),
    instructions: fc.option(instructionsArb),
  },
  { requiredKeys: ["turn", "tab", "profile", "provider", "notes", "leafId"] },
);

describe("every view option of a share link", () => {
  it("decodes to what was encoded, for arbitrary values of every option", () => {
    fc.assert(
      fc.property(viewArb, (view) => {
        // A link is JSON: compare with what JSON makes of the view (-0 becomes 0).
        const payload = samplePayload(JSON.parse(JSON.stringify(view)) as ShareViewV1);
        expect(decodeShareLink(encodeShareFragment(payload))).toEqual({ ok: true, version: 2, payload });
      }),
      { numRuns: 300, seed: 33 },
    );
  });

  it("the app's link of a real session keeps every profile, provider, notes switch, header and captured instruction", () => {
    const fixture = fixtureCase("pi/print-openai-autocompact");
    const session = fixture.session;
    const request = fixture.requests()[0]!;
    const header = learnCapture(request.body, request.file);
    const instructions = { summarizationSystemPrompt: "You summarise.", initialPrompt: "Summarise the conversation.", sources: ["summary-request.json"] };
    for (const profile of ["pi", "senpi"] as const) {
      for (const api of [undefined, ...API_IDS]) {
        for (const notes of [false, true]) {
          const options = { profile, notes, header, ...(api ? { api } : {}) };
          const analysis = analyzeSession(session, options);
          const share = buildShare(session, options, { turn: 2, tab: "tokens", scope: "full", redact: true, unmasked: [], pageUrlChars: 40, instructions }, analysis);
          const decoded = decodeShareLink(share.fragment!);
          expect(decoded.ok, `${profile} ${api} ${notes}`).toBe(true);
          if (!decoded.ok) continue;
          const view = decoded.payload.view;
          expect({ turn: view.turn, tab: view.tab, profile: view.profile, provider: view.provider, notes: view.notes, header: view.header, instructions: view.instructions }).toEqual({
            turn: 2,
            tab: "tokens",
            profile,
            provider: api ?? null,
            notes,
            header,
            instructions,
          });
          expect(sessionFromPayload(decoded.payload).entries.length).toBe(session.entries.length);
        }
      }
    }
  });

  it("a secret inside captured instruction texts is masked in the link, the texts kept", () => {
    const fixture = fixtureCase("pi/print-openai-autocompact");
    const secret = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";
    const view = { turn: 1, tab: "request", profile: "pi" as const, provider: null, notes: false, leafId: null, instructions: { initialPrompt: `Summarise. token=${secret}`, sources: ["a.json"] } };
    const { payload, findings } = buildSharePayload({ session: fixture.session, view, scope: "full" });
    expect(JSON.stringify(payload.view.instructions)).not.toContain(secret);
    expect(payload.view.instructions?.initialPrompt).toMatch(/^Summarise\. token=/);
    expect(findings.some((finding) => finding.path.startsWith("view.instructions"))).toBe(true);
    const decoded = decodeShareLink(encodeShareFragment(payload));
    expect(decoded.ok && decoded.payload.view.instructions?.sources).toEqual(["a.json"]);
  });
});
