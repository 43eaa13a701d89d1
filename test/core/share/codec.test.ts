// The share-link codec: round trips (property test over any session lines and view state), the
// accepted input forms, and a clear error for every kind of bad link: not a link, unknown version,
// bad base64url, truncated, tampered, not JSON, invalid payload, prototype-pollution keys.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { API_IDS } from "../../../src/core/model";
import {
  SHARE_ERROR_MESSAGES,
  decodeShareLink,
  encodeShareFragment,
  isShareLink,
  type SharePayload,
  type ShareViewV1,
} from "../../../src/core/share";
import { fragmentOfJson, legacyFragmentOfJson, samplePayload, samplePayloadV1 } from "./helpers";

function expectError(input: string, code: string, detail?: RegExp) {
  const result = decodeShareLink(input);
  expect(result.ok).toBe(false);
  if (result.ok) return;
  expect(result.error.code).toBe(code);
  expect(result.error.message).toBe(SHARE_ERROR_MESSAGES[result.error.code]);
  if (detail) expect(result.error.detail).toMatch(detail);
}

const idArb = fc.stringMatching(/^[a-z][a-z0-9-]{0,31}$/);
const viewArb: fc.Arbitrary<ShareViewV1> = fc.record(
  {
    turn: fc.option(fc.integer({ min: 1, max: 100000 }), { nil: null }),
    tab: idArb,
    profile: fc.constantFrom("pi" as const, "senpi" as const),
    provider: fc.option(fc.constantFrom(...API_IDS), { nil: null }),
    notes: fc.boolean(),
    leafId: fc.option(fc.string({ maxLength: 40 }), { nil: null }),
    simulation: fc.option(
      fc.dictionary(fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,10}$/), fc.oneof(fc.integer(), fc.boolean(), fc.string(), fc.constant(null)), { maxKeys: 5 }),
      { nil: null },
    ),
  },
  { requiredKeys: ["turn", "tab", "profile", "provider", "notes", "leafId"] },
).filter((view) => view.simulation === undefined || view.simulation === null || !("constructor" in view.simulation && Object.prototype.hasOwnProperty.call(view.simulation, "constructor")));

const payloadArb: fc.Arbitrary<SharePayload> = fc.record({
  v: fc.constant(2 as const),
  session: fc.record({
    fileName: fc.string({ maxLength: 60 }),
    formatId: idArb,
    scope: fc.constantFrom("full" as const, "branch" as const),
    lines: fc.array(fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.json()), { maxLength: 30 }),
  }),
  view: viewArb,
});

describe("share link round trip", () => {
  it("decodes what it encodes, for any session lines and view state", () => {
    fc.assert(
      fc.property(payloadArb, (payload) => {
        const fragment = encodeShareFragment(payload);
        expect(fragment.startsWith("#v2=")).toBe(true);
        expect(fragment.slice(4)).toMatch(/^[A-Za-z0-9_-]*$/);
        const result = decodeShareLink(fragment);
        expect(result).toEqual({ ok: true, version: 2, payload });
      }),
      { numRuns: 200 },
    );
  });

  it("round trips a request header with tools and extra settings", () => {
    const payload = samplePayload({
      header: {
        api: "openai-responses",
        systemPrompt: "You are pi.",
        tools: [{ name: "bash", description: "run", parameters: { type: "object", properties: { constructor: { type: "string" } } } }],
        maxTokens: 32000,
        extraSettings: { store: false, nested: { a: [1, "x", null] } },
        source: "capture.json",
      },
      simulation: { reserveTokens: 16384, keepRecentTokens: 20000 },
    });
    const result = decodeShareLink(encodeShareFragment(payload));
    expect(result).toEqual({ ok: true, version: 2, payload });
  });

  it("accepts a full URL, a fragment without #, and whitespace inserted by chat apps", () => {
    const payload = samplePayload();
    const fragment = encodeShareFragment(payload);
    const data = fragment.slice(4);
    const wrapped = `${data.slice(0, 10)}\n  ${data.slice(10, 30)} ${data.slice(30)}`;
    for (const input of [`https://example.org/contextscope/${fragment}`, fragment.slice(1), `  #v2=${wrapped}\n`]) {
      const result = decodeShareLink(input);
      expect(result.ok, input.slice(0, 40)).toBe(true);
      if (result.ok) expect(result.payload).toEqual(payload);
    }
    expect(isShareLink(`https://x/#${fragment.slice(1)}`)).toBe(true);
    expect(isShareLink("https://x/#turn=3")).toBe(false);
  });

  it("returns fresh objects (decoding twice gives equal, not identical, payloads)", () => {
    const fragment = encodeShareFragment(samplePayload());
    const a = decodeShareLink(fragment);
    const b = decodeShareLink(fragment);
    expect(a).toEqual(b);
    if (a.ok && b.ok) expect(a.payload.view).not.toBe(b.payload.view);
  });
});

describe("bad links give clear errors", () => {
  const good = encodeShareFragment(samplePayload());

  it("not a Contextscope link", () => {
    expectError("", "not-a-link");
    expectError("https://example.org/page", "not-a-link");
    expectError("https://example.org/#turn=4&tab=diff", "not-a-link");
    expectError("#x1=abc", "not-a-link");
  });

  it("unknown version", () => {
    expectError(good.replace("#v2=", "#v3="), "unknown-version", /version 3; this build reads v1, v2/);
    expectError("#v999=AAAA", "unknown-version");
  });

  it("bad base64url", () => {
    expectError("#v1=abc$def", "corrupted", /not base64url/);
    expectError("#v1=ab+/", "corrupted", /not base64url/);
    expectError("#v1=abcde", "corrupted", /length/);
    expectError("#v1=", "corrupted", /no compressed data/);
  });

  it("truncated links", () => {
    const data = good.slice(4);
    for (const keep of [1, 2, 3, 5, 8, Math.floor(data.length / 2), data.length - 6, data.length - 2]) {
      const result = decodeShareLink(`#v2=${data.slice(0, keep)}`);
      expect(result.ok, `kept ${keep} of ${data.length}`).toBe(false);
      if (!result.ok) expect(["corrupted", "tampered", "invalid-payload"]).toContain(result.error.code);
    }
  });

  it("a tampered v2 link is refused: every single-character change, with a message", () => {
    const data = good.slice(4);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let tamperedCode = 0;
    for (let position = 0; position < data.length; position++) {
      const replacement = alphabet[(alphabet.indexOf(data[position]!) + 1 + (position % 63)) % 64]!;
      const result = decodeShareLink(`#v2=${data.slice(0, position)}${replacement}${data.slice(position + 1)}`);
      expect(result.ok, `change at ${position} opened`).toBe(false);
      if (!result.ok) {
        expect(["corrupted", "tampered", "too-large"]).toContain(result.error.code);
        expect(result.error.message.length).toBeGreaterThan(20);
        if (result.error.code === "tampered") tamperedCode++;
      }
    }
    // Most changes inflate to other bytes; the checksum is what refuses them.
    expect(tamperedCode).toBeGreaterThan(0);
    expectError(good.replace(/^#v2=./, (m) => (m.endsWith("A") ? "#v2=B" : "#v2=A")), "tampered", /checksum/);
  });

  it("v1 links of earlier builds keep opening; a change to one never throws and never returns an invalid payload", () => {
    const v1 = legacyFragmentOfJson(JSON.stringify(samplePayloadV1()));
    expect(decodeShareLink(v1)).toEqual({ ok: true, version: 1, payload: samplePayload() });
    const data = v1.slice(4);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    fc.assert(
      fc.property(fc.integer({ min: 0, max: data.length - 1 }), fc.integer({ min: 0, max: 63 }), (position, replacement) => {
        const tampered = data.slice(0, position) + alphabet[replacement] + data.slice(position + 1);
        const result = decodeShareLink(`#v1=${tampered}`);
        if (result.ok) {
          // A change deflate cannot detect (v1 has no checksum): the payload is still fully validated.
          expect(result.payload.v).toBe(2);
          expect(Array.isArray(result.payload.session.lines)).toBe(true);
        } else {
          expect(["corrupted", "invalid-payload", "too-large"]).toContain(result.error.code);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("deep nesting is refused before parsing, in a v1 and a v2 link", () => {
    const deep = `{"v":2,"session":${"[".repeat(200_000)}${"]".repeat(200_000)}}`;
    const started = Date.now();
    expectError(fragmentOfJson(deep), "too-large", /nests more than 80 levels/);
    expectError(legacyFragmentOfJson(deep.replace('"v":2', '"v":1')), "too-large", /nests more than 80 levels/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("garbage that inflates to something that is not JSON", () => {
    expectError(fragmentOfJson("this is not json"), "corrupted", /not valid JSON/);
    expectError("#v1=AAAAAAAA", "corrupted");
  });

  it("invalid payload shapes name the field", () => {
    const base = samplePayload();
    const cases: [unknown, RegExp][] = [
      [[1, 2], /payload: expected an object/],
      [{ ...base, v: 1 }, /payload\.v: expected 2/],
      [{ ...base, extra: 1 }, /payload: unknown field "extra"/],
      [{ v: 2, view: base.view }, /payload: missing field "session"/],
      [{ ...base, session: { ...base.session, lines: ["a", 3] } }, /session\.lines\[1\]: expected a string, got number 3/],
      [{ ...base, session: { ...base.session, scope: "all" } }, /session\.scope: expected one of full, branch/],
      [{ ...base, session: { ...base.session, formatId: "Pi!" } }, /session\.formatId/],
      [{ ...base, view: { ...base.view, turn: 0 } }, /view\.turn/],
      [{ ...base, view: { ...base.view, turn: "3" } }, /view\.turn: expected .* got "3"/],
      [{ ...base, view: { ...base.view, turn: 1.5 } }, /view\.turn/],
      [{ ...base, view: { ...base.view, profile: "claude" } }, /view\.profile: expected one of pi, senpi/],
      [{ ...base, view: { ...base.view, provider: "openai" } }, /view\.provider/],
      [{ ...base, view: { ...base.view, notes: "yes" } }, /view\.notes: expected true or false/],
      [{ ...base, view: { ...base.view, colour: "red" } }, /view: unknown field "colour"/],
      [{ ...base, view: { ...base.view, simulation: { reserve: { nested: 1 } } } }, /view\.simulation\.reserve/],
      [{ ...base, view: { ...base.view, simulation: { constructor: 1 } } }, /setting name "constructor" is not allowed/],
      [{ ...base, view: { ...base.view, header: { api: "anthropic-messages", source: "x" } } }, /view\.header: missing field "extraSettings"/],
      [{ ...base, view: { ...base.view, header: { api: "anthropic-messages", source: "x", extraSettings: {}, tools: [{ name: "a" }] } } }, /view\.header\.tools\[0\]: missing field "description"/],
    ];
    for (const [payload, detail] of cases) expectError(fragmentOfJson(JSON.stringify(payload)), "invalid-payload", detail);
  });
});

describe("prototype pollution", () => {
  it("rejects __proto__ anywhere in the payload", () => {
    const json = JSON.stringify(samplePayload()).replace('"view":{', '"view":{"__proto__":{"polluted":true},');
    expectError(fragmentOfJson(json), "invalid-payload", /__proto__/);
    const deep = JSON.stringify(samplePayload({ header: { api: "anthropic-messages", source: "x", extraSettings: {} } })).replace(
      '"extraSettings":{}',
      '"extraSettings":{"a":{"__proto__":{"isAdmin":true}}}',
    );
    expectError(fragmentOfJson(deep), "invalid-payload", /__proto__/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it("keeps constructor/prototype keys of free-form parts as plain data that cannot alter objects", () => {
    const json = JSON.stringify(samplePayload({ header: { api: "anthropic-messages", source: "x", extraSettings: {} } })).replace(
      '"extraSettings":{}',
      '"extraSettings":{"constructor":{"prototype":{"polluted":true}},"prototype":{"polluted":true}}',
    );
    const result = decodeShareLink(fragmentOfJson(json));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const settings = result.payload.view.header!.extraSettings;
    expect(Object.getPrototypeOf(settings)).toBe(Object.prototype);
    // Copying with assignment, spreading and merging leaves every prototype alone.
    const merged = Object.assign({}, settings, { more: 1 });
    const spread = { ...settings };
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as unknown as Record<string, unknown>).polluted).toBeUndefined();
    expect((merged as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(spread)).toBe(Object.prototype);
    expect(Object.keys(settings)).toEqual(["constructor", "prototype"]);
  });

  it("rejects constructor/prototype where the shape is fixed", () => {
    const json = JSON.stringify(samplePayload()).replace('"view":{', '"view":{"constructor":{"prototype":{"x":1}},');
    expectError(fragmentOfJson(json), "invalid-payload", /unknown field "constructor"/);
  });
});
