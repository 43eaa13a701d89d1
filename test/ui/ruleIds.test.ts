// Rule ids leave the visible text of labels and explanations, and stay in the tooltip with the
// documentation page that states them.
import { describe, expect, it } from "vitest";
import { ruleDocOf, ruleTooltip, withoutRuleIds } from "../../src/ui/ruleIds";

describe("rule ids in labels", () => {
  it.each([
    ["approximate: messages rebuilt from the transcript without api-request records (FM-CC-24)", "approximate: messages rebuilt from the transcript without api-request records", ["FM-CC-24"]],
    ["Limits (CP-0-1)", "Limits", ["CP-0-1"]],
    ["Spiral run (opencode, CP-OC-8 / CP-OC-10)", "Spiral run (opencode)", ["CP-OC-8", "CP-OC-10"]],
    ["Prior summary (CP-OC-20)", "Prior summary", ["CP-OC-20"]],
    ["it is rebuilt from the session (CP-OC-16 … CP-OC-20).", "it is rebuilt from the session.", ["CP-OC-16", "CP-OC-20"]],
    ["Carried at the compaction: no characters counted (RL-22, RL-23).", "Carried at the compaction: no characters counted.", ["RL-22", "RL-23"]],
    ["CP-0-5: system, tools and messages of each body", "system, tools and messages of each body", ["CP-0-5"]],
    ["reconstructed from this entry (PI-R12).", "reconstructed from this entry.", ["PI-R12"]],
    ["bytes of UTF-8 text, ISO-8601 times", "bytes of UTF-8 text, ISO-8601 times", []],
  ])("%s", (input, shown, ids) => {
    const result = withoutRuleIds(input);
    expect(result.ruleIds).toEqual(ids);
    expect(result.text).toBe(shown);
  });

  it("names the documentation page of each rule in the tooltip", () => {
    expect(ruleDocOf("FM-CC-24")).toBe("docs/formats/claude-code.md");
    expect(ruleDocOf("CP-OC-16")).toBe("docs/compaction-policies/opencode.md");
    expect(ruleDocOf("CP-0-1")).toBe("docs/compaction-simulator.md");
    expect(ruleTooltip(["RL-19"])).toContain("RL-19 (docs/reply-language.md)");
    expect(ruleTooltip([])).toBe("");
  });
});
