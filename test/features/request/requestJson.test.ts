// The Request view's JSON text made from the parts kept from the last request: the same bytes as
// formatRequestJson whatever the body, and a part seen in the previous body is not written again.
import { describe, expect, it } from "vitest";
import { formatRequestJson } from "../../../src/core/export/request-json";
import { createTextStore } from "../../../src/core/text/storedText";
import { parseLineKeepingLargeTexts } from "../../../src/core/text/largeLiterals";
import { RequestJsonFormatter } from "../../../src/features/request/requestJson";

/** A value parsed with its large texts kept as StoredText references. */
function storedValue(value: unknown): unknown {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  return parseLineKeepingLargeTexts(bytes, 0, bytes.length, createTextStore(4096));
}

describe("RequestJsonFormatter", () => {
  it("writes formatRequestJson's bytes for bodies that share messages, stored texts and odd values included", () => {
    const long = `tool output "quoted" \\ é ${"x".repeat(3000)} 😀\n`;
    const stored = storedValue({ text: long, nested: { text: long } }) as Record<string, unknown>;
    const first = { role: "user", content: [{ type: "text", text: stored.text }] };
    const second = { role: "assistant", content: [{ type: "thinking", thinking: "why" }, { type: "text", text: "ok" }], extra: undefined };
    const shared = { text: "system", cache_control: { type: "ephemeral" } };
    const formatter = new RequestJsonFormatter();
    const bodies: unknown[] = [
      { model: "m", messages: [first], system: [shared], tools: [], metadata: {}, stream: true },
      { model: "m", messages: [first, second], system: [shared], tools: [], metadata: shared, skipped: undefined, fn: () => 1, stream: true },
      { model: "m", messages: [first, second, undefined, null, 3, "s", stored.nested], system: shared, tools: [[first]], stream: true },
      { messages: [] },
      {},
      [first, second],
      "plain",
      { model: "m", messages: [second, first], system: [shared], when: new Date(0), stream: false },
      { model: "m", messages: [second, first], system: [shared], stream: false },
    ];
    for (const body of [...bodies, ...bodies.slice().reverse()]) expect(formatter.format(body)).toBe(formatRequestJson(body));
  });

  it("does not write again a part the previous body had", () => {
    let written = 0;
    const message = { role: "user", content: "hello", toJSON: () => (written++, { role: "user", content: "hello" }) };
    const formatter = new RequestJsonFormatter();
    const one = formatter.format({ model: "m", messages: [message] });
    const two = formatter.format({ model: "m", messages: [message, { role: "assistant", content: "hi" }] });
    expect(written).toBe(1);
    expect(one).toBe(formatRequestJson({ model: "m", messages: [{ role: "user", content: "hello" }] }));
    expect(two).toBe(formatRequestJson({ model: "m", messages: [{ role: "user", content: "hello" }, { role: "assistant", content: "hi" }] }));
    // Only the last body's parts are kept: one seen two bodies ago is written again.
    formatter.format({ model: "m", messages: [] });
    formatter.format({ model: "m", messages: [message] });
    expect(written).toBe(2);
  });
});
