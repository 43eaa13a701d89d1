// pi's summariser on OpenAI Responses: a Responses-shaped captured summariser request fills the
// instruction slots like the Chat Completions and Anthropic forms do, and the rebuild with them
// gives that same body back byte for byte.
import { describe, expect, it } from "vitest";
import { buildCompactionRequests, extractCompactionInstructions, listCompactionEntryIds } from "../../../../../src/core/agents/pi/compaction";
import { fixtureCase } from "../../../../support/fixtures";

const fixture = fixtureCase("pi/print-openai-autocompact");

describe("pi summariser instruction slots from a Responses-shaped capture", () => {
  const chatCapture = fixture.requests("summary")[0]!;
  const chat = extractCompactionInstructions(chatCapture.body, chatCapture.file)!;
  const entryId = listCompactionEntryIds(fixture.session)[0]!;
  const settings = { reserveTokens: 11600, keepRecentTokens: 1800 };
  const responses = buildCompactionRequests(fixture.session, { profile: "pi", api: "openai-responses", instructions: chat.instructions, settings }, entryId).requests[0]!.body;

  it("the rebuilt Responses request has the shape pi-ai sends (system item, one user item)", () => {
    expect(Array.isArray(responses.input)).toBe(true);
    expect((responses.input as unknown[]).length).toBe(2);
  });

  it("reads its system prompt and instruction into the same slots", () => {
    const read = extractCompactionInstructions(responses, "responses.json");
    expect(read).not.toBeNull();
    expect(read!.api).toBe("openai-responses");
    expect(read!.slot).toBe(chat.slot);
    expect(read!.instructions.summarizationSystemPrompt).toBe(chat.instructions.summarizationSystemPrompt);
    expect(read!.instructions[chat.slot]).toBe(chat.instructions[chat.slot]);
  });

  it("rebuilds the captured body byte for byte from its own slots", () => {
    const read = extractCompactionInstructions(responses, "responses.json")!;
    const again = buildCompactionRequests(fixture.session, { profile: "pi", api: "openai-responses", instructions: read.instructions, settings }, entryId).requests[0]!.body;
    expect(JSON.stringify(again)).toBe(JSON.stringify(responses));
  });
});
