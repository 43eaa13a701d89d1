// Every provenance rule the core writes, said in words: no colon, no hyphenated code name, no
// camelCase, on the timeline's auxiliary rows, Details and the Messages table's kind column.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { provenanceWords } from "../../src/ui/words";

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? sourceFiles(full) : full.endsWith(".ts") ? [full] : [];
  });
}

// Read from the source itself, so a new rule is held to the same words.
const RULES = [...new Set(sourceFiles(path.join(__dirname, "../../src/core")).flatMap((file) => [...readFileSync(file, "utf8").matchAll(/rule: "([a-z-]+:[a-z0-9_-]+)"/g)].map((match) => match[1]!)))];

describe("provenance rules in words", () => {
  it("finds the rules the core writes", () => {
    expect(RULES).toContain("synth:compaction-summary");
    expect(RULES.length).toBeGreaterThan(15);
  });

  it("says each without its code form", () => {
    for (const rule of [...RULES, "entry"]) {
      const words = provenanceWords(rule);
      expect(words, rule).not.toMatch(/[:_]|[a-z]-[a-z]|[a-z][A-Z]/);
      expect(words.length, rule).toBeGreaterThan(3);
    }
    expect(provenanceWords("synth:compaction-summary")).toBe("compaction summary (made by the agent)");
    expect(provenanceWords("codex:base-instructions")).toBe("base instructions");
    expect(provenanceWords("entry")).toBe("from the file");
  });
});
