// Rule ids leave the visible text of labels and explanations, and stay in the tooltip with the
// documentation page that states them; the pages come from the agents' descriptors (and the
// framework's families), and every rule id an agent's code names leads to a page that exists.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { allAgents, policyOnlyAgents } from "../../src/core/session/agents";
import { ruleDocs } from "../../src/core/session/ruleDocs";
import { RULE_ID, ruleDocOf, ruleTooltip, setRuleDocs, withoutRuleIds } from "../../src/ui/ruleIds";

const ROOT = path.resolve(__dirname, "../..");

/** The .ts files under `dir`, recursively. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((item) => {
    const full = path.join(dir, item.name);
    if (item.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(item.name) ? [full] : [];
  });
}

// Matches of the rule-id pattern that are no rule: a hash's name.
const NOT_RULES = new Set(["SHA-256"]);

beforeAll(() => setRuleDocs(ruleDocs()));

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

describe("rule documentation from the descriptors", () => {
  it("takes the longest matching family, and names no page before the worker hands the table over", () => {
    expect(ruleDocOf("DH-INF-1")).toBe("docs/compaction-simulator.md");
    expect(ruleDocOf("DH-12")).toBe("docs/formats/deepseek-harness.md");
    expect(ruleDocOf("CP-GM-3")).toBe("docs/compaction-policies/gemini-cli.md");
    expect(ruleDocOf("FM-GM-1")).toBe("docs/formats/gemini-cli.md");
    expect(ruleDocOf("FM-RQ-5")).toBe("docs/formats.md");
    setRuleDocs([]);
    expect(ruleDocOf("FM-CC-24")).toBeNull();
    expect(ruleTooltip(["FM-CC-24"])).not.toContain("docs/");
    setRuleDocs(ruleDocs());
  });

  it("every agent declares where its rules are written down, on pages that exist", () => {
    for (const agent of [...allAgents(), ...policyOnlyAgents()]) {
      expect(agent.ruleDocs.length, agent.id).toBeGreaterThan(0);
      for (const row of agent.ruleDocs) expect(existsSync(path.join(ROOT, row.doc)), `${agent.id}: ${row.doc}`).toBe(true);
    }
  });

  it("every rule id named in an agent's folder resolves to a documentation page that exists", () => {
    const pattern = new RegExp(String.raw`\b(?:${RULE_ID})\b`, "g");
    const unresolved = new Set<string>();
    let seen = 0;
    for (const agent of allAgents()) {
      for (const file of sourceFiles(path.join(ROOT, "src/core/agents", agent.id))) {
        for (const id of readFileSync(file, "utf8").match(pattern) ?? []) {
          if (NOT_RULES.has(id)) continue;
          seen += 1;
          const doc = ruleDocOf(id);
          if (doc === null || !existsSync(path.join(ROOT, doc))) unresolved.add(`${path.relative(ROOT, file)}: ${id} → ${doc ?? "no page"}`);
        }
      }
    }
    expect(seen).toBeGreaterThan(1000);
    expect([...unresolved]).toEqual([]);
  });
});
