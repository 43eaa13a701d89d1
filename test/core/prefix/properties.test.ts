// Property tests of the prefix diff (issue #5 "Done when").
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ApiId } from "../../../src/core/model";
import { diffRequests } from "../../../src/core/prefix/diff";
import { segmentRequest } from "../../../src/core/prefix/segment-request";
import { utf8ByteLength } from "../../../src/core/util/utf8";

const text = fc.string({ unit: fc.constantFrom("a", "b", " ", "\n", '"', "\\", "é", "한", "😀", "Z", "<", "/"), maxLength: 80 });
const message = fc.record({ role: fc.constantFrom("user", "assistant"), content: text });
const conversation = fc.array(message, { minLength: 1, maxLength: 8 });

function chatBody(messages: { role: string; content: unknown }[]) {
  return { model: "gpt-4.1", messages: [{ role: "system", content: "You are helpful." }, ...messages], stream: true };
}
function anthropicBody(messages: { role: string; content: unknown }[]) {
  return { model: "claude-sonnet-4-5", messages, system: [{ type: "text", text: "sys" }], tools: [{ name: "t", input_schema: {} }] };
}
const shapes: [ApiId, (m: { role: string; content: unknown }[]) => Record<string, unknown>, number][] = [
  ["openai-completions", chatBody, 1],
  ["anthropic-messages", anthropicBody, 0],
];

describe.each(shapes)("prefix diff properties (%s)", (api, build, offset) => {
  const diff = (a: Record<string, unknown>, b: Record<string, unknown>) =>
    diffRequests(segmentRequest(api, a, { tokenizer: "estimate" }), segmentRequest(api, b, { tokenizer: "estimate" }), { tokenizer: "estimate" });

  it("identical requests share everything", () => {
    fc.assert(
      fc.property(conversation, (messages) => {
        const result = diff(build(messages), structuredClone(build(messages)));
        expect(result.breakPath).toBeNull();
        expect(result.sharedBytes).toBe(result.bytes);
      }),
    );
  });

  it("appending messages breaks only at the end (no break)", () => {
    fc.assert(
      fc.property(conversation, conversation, (first, more) => {
        const previous = segmentRequest(api, build(first), { tokenizer: "estimate" });
        const result = diff(build(first), build([...first, ...more]));
        expect(result.breakPath).toBeNull();
        expect(result.sharedBytes).toBe(previous.bytes);
        expect(result.sharedTokens).toBe(previous.tokens - previous.primingTokens);
      }),
    );
  });

  it("an edit at a known offset is reported at exactly that offset and path", () => {
    fc.assert(
      fc.property(conversation, fc.nat(), fc.nat(), (messages, pickMessage, pickChar) => {
        const m = pickMessage % messages.length;
        const original = messages[m]!.content;
        let k = pickChar % (original.length + 1);
        const before = original.charCodeAt(k - 1);
        if (k > 0 && before >= 0xd800 && before <= 0xdbff) k--; // never split a surrogate pair
        const inserted = original[k] === "Z" ? "Y" : "Z";
        const edited = messages.map((msg, i) => (i === m ? { ...msg, content: original.slice(0, k) + inserted + original.slice(k) } : msg));
        const result = diff(build(messages), build(edited));
        expect(result.breakPath).toBe(`messages[${m + offset}].content[0].text`);
        const renderedPrefix = `{"type":"text","text":${JSON.stringify(original.slice(0, k)).slice(0, -1)}`;
        expect(result.breakByteOffsetInSegment).toBe(utf8ByteLength(renderedPrefix));
        const segments = segmentRequest(api, build(edited), { tokenizer: "estimate" }).segments.toArray();
        const before2 = segments.slice(0, result.breakSegmentIndex!).reduce((sum, s) => sum + s.bytes, 0);
        expect(result.sharedBytes).toBe(before2 + result.breakByteOffsetInSegment!);
      }),
    );
  });
});

describe("token offsets", () => {
  it("equal the token count of the shared byte prefix (exact o200k)", () => {
    fc.assert(
      fc.property(conversation, fc.nat(), fc.nat(), (messages, pickMessage, pickChar) => {
        const m = pickMessage % messages.length;
        const original = messages[m]!.content;
        let k = pickChar % (original.length + 1);
        const before = original.charCodeAt(k - 1);
        if (k > 0 && before >= 0xd800 && before <= 0xdbff) k--;
        const edited = messages.map((msg, i) => (i === m ? { ...msg, content: original.slice(0, k) + "Q" + original.slice(k) } : msg));
        const previous = segmentRequest("openai-completions", chatBody(messages));
        const next = segmentRequest("openai-completions", chatBody(edited));
        const result = diffRequests(previous, next);
        expect(result.tokensExact).toBe(true);
        // The shared byte prefix as a request of its own: messages before m, then m cut at k.
        const prefixRequest = segmentRequest(
          "openai-completions",
          chatBody([...messages.slice(0, m), { role: messages[m]!.role, content: original.slice(0, k) }]),
        );
        expect(result.sharedTokens).toBe(prefixRequest.tokens - prefixRequest.primingTokens);
        // Its rendering ends with the cut text block's closing `"}`, which the shared prefix lacks.
        expect(result.sharedBytes).toBe(prefixRequest.bytes - 2);
      }),
      { numRuns: 60 },
    );
  });
});
