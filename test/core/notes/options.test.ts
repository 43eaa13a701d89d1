// Every [INF] rule names an option that exists with the spec's default (README "Rule for inferred behaviour").
import { describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS, INFERRED_RULES, resolveOptions } from "../../../src/core/notes";

describe("inferred rules and options", () => {
  it("every inferred rule with an option names an existing option", () => {
    for (const rule of INFERRED_RULES) {
      if (rule.option !== null) expect(Object.keys(DEFAULT_OPTIONS)).toContain(rule.option);
      expect(rule.ruleId).toMatch(/^RL-/);
    }
  });
  it("covers the spec's [INF] parameter table (§9)", () => {
    const options = INFERRED_RULES.map((r) => r.option);
    for (const name of ["resetAfterNote", "requestScope", "noteForRequestedEnglish", "noteTemplate", "carrierForm", "logLinePatterns"]) {
      expect(options).toContain(name);
    }
  });
  it("defaults are the spec's values", () => {
    expect(DEFAULT_OPTIONS).toMatchObject({
      thresholdChars: 4000,
      resetAfterNote: true,
      requestScope: "history",
      noteForRequestedEnglish: true,
      noteTemplate: { written: "Reply language: {name}", requested: "Reply language: {name} (the user asked for it)" },
      carrierForm: "same-block",
      carrierSeparator: "\n\n",
      namedShare: 0.3,
    });
    expect(DEFAULT_OPTIONS.languageNames).toEqual([
      "Korean", "Japanese", "Chinese", "Cyrillic script", "English", "Greek", "Arabic script", "Hebrew", "Thai", "Devanagari script",
    ]);
  });
  it("resolveOptions memoises per partial object and ignores undefined values", () => {
    const partial = { thresholdChars: 10, resetAfterNote: undefined };
    expect(resolveOptions(partial)).toBe(resolveOptions(partial));
    expect(resolveOptions(partial).resetAfterNote).toBe(true);
    expect(resolveOptions()).toBe(DEFAULT_OPTIONS);
  });
});
