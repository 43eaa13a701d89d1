// The first difference of two bodies: the shared prefix in UTF-8 bytes, the part in the wire
// shape's words, and the lines around it.
import { describe, expect, it } from "vitest";
import { firstDifference, partOfPath } from "../../../src/core/captures/firstDifference";

describe("firstDifference", () => {
  it("is null for bodies equal under sorted keys", () => {
    expect(firstDifference({ b: 1, a: [1, { y: 2, x: 1 }] }, { a: [1, { x: 1, y: 2 }], b: 1 })).toBeNull();
  });

  it("names the message and block, counts the shared prefix in UTF-8 bytes, and shows the lines around it", () => {
    const rebuilt = { model: "m", messages: [{ role: "user", content: [{ type: "text", text: "요약" }, { type: "text", text: "abc" }] }] };
    const wire = { model: "m", messages: [{ role: "user", content: [{ type: "text", text: "요약" }, { type: "text", text: "abd" }] }] };
    const difference = firstDifference(rebuilt, wire)!;
    expect(difference.path).toBe("$.messages[0].content[1].text");
    expect(difference.part).toBe("message 1, block 2");
    // {"messages":[{"content":[{"text":"요약","type":"text"},{"text":"ab  — the two Hangul syllables are 3 bytes each.
    const prefix = '{"messages":[{"content":[{"text":"요약","type":"text"},{"text":"ab';
    expect(difference.offset).toBe(prefix.length + 4);
    expect(difference.rebuilt[difference.line - difference.firstLine]).toContain('"abc"');
    expect(difference.wire[difference.line - difference.firstLine]).toContain('"abd"');
    expect(difference.rebuilt.length).toBeLessThanOrEqual(7);
  });

  it("clips a long line around the difference", () => {
    const long = "x".repeat(5000);
    const difference = firstDifference({ system: `${long}A${long}` }, { system: `${long}B${long}` })!;
    const line = difference.rebuilt[difference.line - difference.firstLine]!;
    expect(line.length).toBeLessThan(300);
    expect(line).toContain("A");
    expect(difference.part).toBe("system");
  });
});

describe("partOfPath", () => {
  it("speaks each wire shape's terms", () => {
    expect(partOfPath("$.tools[2].input_schema")).toBe("tools (tool 3)");
    expect(partOfPath("$.system[1].text")).toBe("system (block 2)");
    expect(partOfPath("$.input[4].content[0].text")).toBe("input item 5, block 1");
    expect(partOfPath("$.contents[3].parts[1].text")).toBe("message 4, part 2");
    expect(partOfPath("$.max_tokens")).toBe("parameter max_tokens");
    expect(partOfPath('$.client_metadata["x-codex-turn-metadata"]<json>.turn_started_at_unix_ms')).toBe("parameter client_metadata");
    expect(partOfPath("$")).toBe("the whole body");
  });
});
