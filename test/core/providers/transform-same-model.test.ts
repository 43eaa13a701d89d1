// The transform sends the same model's messages as they are: an assistant message that loses
// nothing is the session's own object in every turn's list (no copy per message and model), and
// one that loses a blank thinking block is still adapted.
import { describe, expect, it } from "vitest";
import type { AssistantMessage, LlmMessage, UserMessage } from "../../../src/core/model";
import { resolveModel } from "../../../src/core/models/catalogue";
import { prepareMessages } from "../../../src/core/providers/transform";

const model = resolveModel({ provider: "anthropic", modelId: "claude-sonnet-4-5" }, "anthropic-messages");

function answer(extra: Partial<AssistantMessage> = {}): AssistantMessage {
  return { role: "assistant", content: [{ type: "text", text: "done" }], api: model.api, provider: model.provider, model: model.id, stopReason: "stop", timestamp: 1, ...extra } as AssistantMessage;
}
const prompt: UserMessage = { role: "user", content: [{ type: "text", text: "go" }], timestamp: 1 };

describe("prepareMessages for the model that wrote the messages", () => {
  it("keeps an assistant message that loses nothing as the same object", () => {
    const kept = answer();
    const prepared = prepareMessages([prompt, kept] as LlmMessage[], model, null, undefined, "test-same-model");
    expect(prepared.messages[1]).toBe(kept);
    expect(prepared.adjustments).toEqual([]);
  });

  it("still adapts one whose blank unsigned thinking block is dropped", () => {
    const thinking = answer({ content: [{ type: "thinking", thinking: "  " }, { type: "text", text: "done" }] } as Partial<AssistantMessage>);
    const prepared = prepareMessages([prompt, thinking] as LlmMessage[], model, null, undefined, "test-same-model-thinking");
    expect(prepared.messages[1]).not.toBe(thinking);
    expect((prepared.messages[1] as AssistantMessage).content).toEqual([{ type: "text", text: "done" }]);
    expect(prepared.adjustments.map((a) => a.kind)).toEqual(["dropped-block"]);
  });

  it("adapts another model's message", () => {
    const other = answer({ model: "another-model" });
    const prepared = prepareMessages([prompt, other] as LlmMessage[], model, null, undefined, "test-other-model");
    expect(prepared.messages[1]).not.toBe(other);
    expect(prepared.messages[1]).toEqual(other);
  });
});
