// Conformance: every compaction of the two pi fixtures rebuilds to the recorded summariser
// requests byte for byte (spec §6 rows 17, 18, 20, 21, 22, 23), with the instruction slots filled
// from the recorded requests themselves (the texts are data, not code).
import { describe, expect, it } from "vitest";
import { isNotRecorded } from "../../src/core/model";
import {
  buildCompactionRequests,
  extractCompactionInstructions,
  mergeCompactionInstructions,
  type CompactionInstructions,
} from "../../src/core/agents/pi/compaction";
import {
  FIXTURE_SETTINGS,
  FIXTURE_SUMMARY_REQUESTS,
  loadPiFixture,
  type PiFixtureName,
} from "../core/agents/pi/compaction/fixture-sessions";

const NAMES: PiFixtureName[] = ["print-openai-autocompact", "rpc-anthropic-manualcompact"];

/** All instruction slots of a fixture, from its own recorded summary requests. */
function instructionsOf(name: PiFixtureName): CompactionInstructions {
  const fixture = loadPiFixture(name);
  const captured = FIXTURE_SUMMARY_REQUESTS[name]
    .flatMap((c) => c.requests)
    .map((n) => extractCompactionInstructions(fixture.request(n), `${n}.json`));
  return mergeCompactionInstructions(...captured.map((c) => c?.instructions));
}

/** Text of the single user text block of a recorded summariser request. */
function recordedUserText(body: Record<string, unknown>): string {
  const messages = body.messages as { role: string; content: { text: string }[] }[];
  const user = messages.find((m) => m.role === "user")!;
  return user.content[0]!.text;
}

function conversationOf(userText: string): string {
  const start = "<conversation>\n".length;
  return userText.slice(start, userText.indexOf("\n</conversation>\n\n"));
}

describe.each(NAMES)("pi compaction rebuild: %s", (name) => {
  const fixture = loadPiFixture(name);
  const instructions = instructionsOf(name);
  const customInstructions: Record<string, string> = {};
  for (const c of FIXTURE_SUMMARY_REQUESTS[name]) if (c.customInstructions) customInstructions[c.entryId] = c.customInstructions;

  it("the recorded summary requests are classified as such in the meta files", () => {
    for (const c of FIXTURE_SUMMARY_REQUESTS[name]) for (const n of c.requests) expect(fixture.meta(n).kind).toBe("summary");
  });

  it.each(FIXTURE_SUMMARY_REQUESTS[name].map((c) => [c.entryId, c] as const))("compaction %s equals the recorded requests byte for byte", (_id, c) => {
    const rebuild = buildCompactionRequests(
      fixture.session,
      { profile: "pi", instructions, settings: FIXTURE_SETTINGS[name], customInstructions },
      c.entryId,
    );
    expect(rebuild.requests.map((r) => r.role)).toEqual(c.requests.length === 2 ? ["history", "turn-prefix"] : [rebuild.requests[0]!.role]);
    expect(rebuild.requests).toHaveLength(c.requests.length);
    const entry = fixture.session.entries.find((e) => e.id === c.entryId)!;
    expect(rebuild.firstKeptEntryId).toBe(entry.raw.firstKeptEntryId);
    expect(rebuild.computedCut.firstKeptEntryId).toBe(entry.raw.firstKeptEntryId);
    expect(rebuild.fileLists).toEqual(entry.raw.details);
    expect(rebuild.tokensBefore.computed).toBe(entry.raw.tokensBefore);

    c.requests.forEach((n, i) => {
      const request = rebuild.requests[i]!;
      const recordedText = fixture.requestText(n);
      const recorded = JSON.parse(recordedText) as Record<string, unknown>;
      const userText = recordedUserText(recorded);
      // Serialized conversation (PI-K23) and previous summary (PI-K14) first, for clear failures.
      const conversation = request.role === "history" ? rebuild.serializedConversation : rebuild.turnPrefixConversation!;
      expect(conversation).toBe(conversationOf(userText));
      if (request.role === "history" && rebuild.previousSummary) {
        expect(userText).toContain(`<previous-summary>\n${rebuild.previousSummary}\n</previous-summary>\n\n`);
      }
      expect(request.userText).toBe(userText);
      expect(request.notRecorded).toEqual([]);
      // The whole body, byte for byte (PI-R13, row 21).
      expect(JSON.stringify(request.body)).toBe(recordedText);
    });
  });
});

describe("spec §6 rows", () => {
  it("row 17: print-openai compaction 1 — cut 00bb350c, not split, README in readFiles, initial prompt", () => {
    const fixture = loadPiFixture("print-openai-autocompact");
    const rebuild = buildCompactionRequests(
      fixture.session,
      { profile: "pi", instructions: instructionsOf("print-openai-autocompact"), settings: FIXTURE_SETTINGS["print-openai-autocompact"] },
      "d031100d",
    );
    expect(rebuild.isSplitTurn).toBe(false);
    expect(rebuild.previousSummary).toBeNull();
    expect(rebuild.requests[0]!.instructionSlot).toBe("initialPrompt");
    expect(rebuild.fileLists.readFiles).toEqual(["/home/dev/pi-print-openai-autocompact/lighthouse-notes/README.md"]);
    expect(rebuild.requests[0]!.maxTokens).toBe(9280);
  });

  it("row 18: print-openai compaction 2 — G2 boundary 00bb350c, cut 1100d7d9, only the turn-prefix request, PI-K29 lint", () => {
    const fixture = loadPiFixture("print-openai-autocompact");
    const rebuild = buildCompactionRequests(
      fixture.session,
      { profile: "pi", instructions: instructionsOf("print-openai-autocompact"), settings: FIXTURE_SETTINGS["print-openai-autocompact"] },
      "2ca2e615",
    );
    expect(rebuild.boundaryStartEntryId).toBe("00bb350c");
    expect(rebuild.isSplitTurn).toBe(true);
    expect(rebuild.requests.map((r) => [r.role, r.maxTokens])).toEqual([["turn-prefix", 5800]]);
    expect(rebuild.serializedConversation).toBe("");
    expect(rebuild.lints.some((l) => l.startsWith("previous summary discarded (split turn with empty history)"))).toBe(true);
    expect((fixture.session.entries.find((e) => e.id === "2ca2e615")!.raw.summary as string).startsWith("No prior history.")).toBe(true);
  });

  it("row 20: rpc-anthropic compaction 2 — history with previous summary and focus (cap 3200), prefix cap 2000", () => {
    const fixture = loadPiFixture("rpc-anthropic-manualcompact");
    const focus = "Focus on which files were read and which were written.";
    const rebuild = buildCompactionRequests(
      fixture.session,
      {
        profile: "pi",
        instructions: instructionsOf("rpc-anthropic-manualcompact"),
        settings: FIXTURE_SETTINGS["rpc-anthropic-manualcompact"],
        customInstructions: { "6a015245": focus },
      },
      "6a015245",
    );
    expect(rebuild.requests.map((r) => [r.role, r.instructionSlot, r.maxTokens])).toEqual([
      ["history", "updatePrompt", 3200],
      ["turn-prefix", "turnPrefixPrompt", 2000],
    ]);
    expect(rebuild.requests[0]!.userText.endsWith(`\n\nAdditional focus: ${focus}`)).toBe(true);
    expect(rebuild.customInstructions).toBe(focus);
    // The previous compaction entry inside the summarised range is not in the transcript (PI-K17).
    expect(rebuild.serializedConversation.startsWith("[User]: What files have we looked at so far in this session?")).toBe(true);
    expect(rebuild.serializedConversation).not.toContain("compacted into the following summary");
  });

  it("without instructions, system prompt and instruction become not-recorded markers in place", () => {
    const fixture = loadPiFixture("rpc-anthropic-manualcompact");
    const rebuild = buildCompactionRequests(fixture.session, { profile: "pi", settings: FIXTURE_SETTINGS["rpc-anthropic-manualcompact"] }, "be3cec52");
    const body = rebuild.requests[0]!.body as { system: unknown; messages: { content: { text: unknown }[] }[] };
    expect(JSON.stringify(body.system)).toContain("$notRecorded");
    const content = body.messages[0]!.content;
    expect(typeof content[0]!.text).toBe("string");
    expect((content[0]!.text as string).startsWith("<conversation>\n[User]: ")).toBe(true);
    expect(isNotRecorded(content[content.length - 1]!.text)).toBe(true);
    expect(rebuild.requests[0]!.notRecorded).toEqual(["system", "pi initial summarization prompt"]);
    expect(rebuild.requests[0]!.userText.endsWith("[not recorded: pi initial summarization prompt]")).toBe(true);
  });

  it("extractCompactionInstructions recognises the slot, the focus suffix and the cap of each capture", () => {
    const print = loadPiFixture("print-openai-autocompact");
    const rpc = loadPiFixture("rpc-anthropic-manualcompact");
    const rows = [
      [extractCompactionInstructions(print.request(9)), "openai-completions", "initialPrompt", null, 9280],
      [extractCompactionInstructions(print.request(14)), "openai-completions", "turnPrefixPrompt", null, 5800],
      [extractCompactionInstructions(rpc.request(12)), "anthropic-messages", "initialPrompt", null, 3200],
      [extractCompactionInstructions(rpc.request(16)), "anthropic-messages", "updatePrompt", "Focus on which files were read and which were written.", 3200],
      [extractCompactionInstructions(rpc.request(17)), "anthropic-messages", "turnPrefixPrompt", null, 2000],
    ] as const;
    for (const [captured, api, slot, focus, cap] of rows) {
      expect(captured).not.toBeNull();
      expect([captured!.api, captured!.slot, captured!.customInstructions, captured!.maxTokens]).toEqual([api, slot, focus, cap]);
      expect(captured!.instructions.summarizationSystemPrompt!.length).toBeGreaterThan(50);
      expect(captured!.instructions[slot]!.startsWith("\n")).toBe(false);
      expect(captured!.instructions[slot]!).not.toContain("Additional focus");
    }
    // The same texts whichever wire shape they were captured in.
    expect(rows[0][0]!.instructions.initialPrompt).toBe(rows[2][0]!.instructions.initialPrompt);
    expect(rows[1][0]!.instructions.turnPrefixPrompt).toBe(rows[4][0]!.instructions.turnPrefixPrompt);
    // Main requests are not summariser requests.
    expect(extractCompactionInstructions(print.request(1))).toBeNull();
    expect(extractCompactionInstructions(rpc.request(13))).toBeNull();
    expect(extractCompactionInstructions("nope")).toBeNull();
  });
});
