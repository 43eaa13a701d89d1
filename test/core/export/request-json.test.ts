// The JSON export is exactly the Request view's text: JSON.stringify(body, null, 2), byte for byte.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exportRequestJson, findNotRecorded, formatRequestJson, notRecordedWarning } from "../../../src/core/export";
import { notRecorded } from "../../../src/core/model";

describe("request JSON export", () => {
  it("is JSON.stringify(body, null, 2) with no trailing newline", () => {
    const body = { model: "m", messages: [{ role: "user", content: "a\"b\n\u2028" }], stream: true };
    expect(exportRequestJson(body)).toBe(JSON.stringify(body, null, 2));
    expect(exportRequestJson(body)).toBe(formatRequestJson(body));
    expect(exportRequestJson(body).endsWith("}")).toBe(true);
    expect(exportRequestJson({ a: 1 })).toBe('{\n  "a": 1\n}');
  });

  it("matches for any JSON body and parses back to it", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        const text = exportRequestJson(body);
        expect(text).toBe(JSON.stringify(body, null, 2));
        expect(JSON.stringify(JSON.parse(text))).toBe(JSON.stringify(body));
      }),
    );
  });

  it("finds $notRecorded markers in order, once each", () => {
    const body = { system: notRecorded("system"), tools: notRecorded("tools"), messages: [{ content: notRecorded("system") }] };
    expect(findNotRecorded(body)).toEqual(["system", "tools"]);
    expect(findNotRecorded({ a: [1, { b: "$notRecorded" }] })).toEqual([]);
    expect(notRecordedWarning(["system", "tools"])).toMatch(/does not record system, tools/);
    expect(notRecordedWarning([])).toBeNull();
  });
});
