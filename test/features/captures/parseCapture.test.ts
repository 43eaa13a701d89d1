// A dropped captured request is told apart: pi summariser requests (no tools, accepted by
// extractCompactionInstructions) fill compaction instruction slots; main requests become headers.
// Also the note explanation texts the Request view and Details panel show (plain text).
import { describe, expect, it } from "vitest";
import type { Provenance } from "../../../src/core/model";
import { inferredText, noteExplanation } from "../../../src/app/explain";
import { parseCapture } from "../../../src/features/captures/parseCapture";
import { fixtureCase } from "../../support/fixtures";

const fixture = fixtureCase("pi/print-openai-autocompact");
const body = (n: string) => fixture.request(Number(n));

describe("parseCapture", () => {
  it("a recorded summariser request fills its slot; a main request is a header", () => {
    const summary = parseCapture(body("009"), "009.json");
    expect(summary.kind).toBe("compaction");
    if (summary.kind === "compaction") {
      expect(summary.captured.slot).toBe("initialPrompt");
      expect(summary.captured.instructions.summarizationSystemPrompt).toBeTruthy();
    }
    const update = parseCapture(body("014"), "014.json");
    // The second compaction split a turn: its recorded request is the turn-prefix request (PI-K27).
    expect(update.kind === "compaction" && update.captured.slot).toBe("turnPrefixPrompt");
    const main = parseCapture(body("001"), "001.json");
    expect(main.kind).toBe("header");
    if (main.kind === "header") expect(main.header.tools?.length).toBeGreaterThan(0);
  });

  it("a summariser-shaped body that carries tools is a main request, not a summariser capture", () => {
    const withTools = { ...body("009"), tools: [{ type: "function", function: { name: "read", parameters: {} } }] };
    expect(parseCapture(withTools, "x.json").kind).toBe("header");
  });

  it("merges a summariser request's slots into those filled so far, the first value of a slot winning", () => {
    const first = parseCapture(body("009"), "009.json");
    if (first.kind !== "compaction") throw new Error("009 is a summariser request");
    expect(first.merged).toEqual({ ...first.captured.instructions });
    const filled = { initialPrompt: "kept", sources: ["earlier.json"] };
    const second = parseCapture(body("014"), "014.json", filled);
    if (second.kind !== "compaction") throw new Error("014 is a summariser request");
    expect(second.merged.initialPrompt).toBe("kept");
    expect(second.merged.turnPrefixPrompt).toBe(second.captured.instructions.turnPrefixPrompt);
    expect(second.merged.turnPrefixPrompt).toBeTruthy();
    expect(second.merged.sources?.[0]).toBe("earlier.json");
    expect(second.merged.sources?.length).toBeGreaterThan(1);
  });
});

describe("note explanations", () => {
  const provenance: Provenance = {
    rule: "note:reply-language",
    entryId: null,
    ruleId: "RL-15",
    inferred: "RL-19",
    explanation: "Reply-language note: Korean, read from user message u1.",
    note: { language: "Korean", source: "written", fromEntryId: "u1", builtUpChars: 4210, inferredRules: ["RL-14", "RL-16", "RL-19"] },
  };

  it("names the language, the source message, the characters built up and each inferred rule with its alternative", () => {
    const text = noteExplanation(provenance)!;
    expect(text).toContain("Reply-language note: Korean.");
    expect(text).toContain("user message u1");
    expect(text).toContain("4210 characters");
    expect(text).toContain("inferred (RL-19)");
    expect(text).toMatch(/inferred \(RL-19\): the exact note text.*; alternative: any template with \{name\}/);
    expect(text).toContain("inferred (RL-14)");
    expect(text.match(/inferred \(RL-19\)/g)).toHaveLength(1);
  });

  it("an explicit request and a carrier say so", () => {
    const requested = noteExplanation({ ...provenance, note: { ...provenance.note!, source: "explicit-request" } })!;
    expect(requested).toContain("explicitly asked for Korean (user message u1)");
    const carrier = noteExplanation({
      rule: "wrap:compaction-summary",
      entryId: "c1",
      note: { language: "English", source: "explicit-request", fromEntryId: "u0", builtUpChars: 0, inferredRules: ["RL-22", "RL-23", "RL-19"] },
    })!;
    expect(carrier).toContain("carried by this compaction summary (after </summary>): English");
    expect(carrier).toContain("inferred (RL-22)");
  });

  it("a serializer inference names its alternative option", () => {
    expect(inferredText("PROV-MAXTOKENS")).toMatch(/^inferred \(PROV-MAXTOKENS\): .*alternative: change option maxTokensCap$/);
    expect(noteExplanation({ rule: "entry", entryId: "x" })).toBeNull();
  });
});
