// Outside an agent's own folder (src/core/agents/<id>/), no code compares an agent, format,
// profile or policy id with a string literal: it asks the agent's descriptor or the policy
// instead; nor does it name one of the agent's profiles as a value (`profile: "pi"`): the default
// profile is `defaultProfileId()`, or the option is left out (the session's agent's first). The
// ids come from the registries, so a new agent or policy is covered by itself.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { allAgents, defaultProfileId, policyOnlyAgents, PROFILE_IDS } from "../../src/core/session/agents";
import { POLICY_IDS } from "../../src/core/session/simulate/policies";

const SRC = path.resolve(__dirname, "../../src");
const AGENTS = [...allAgents(), ...policyOnlyAgents()];
const AGENT_FOLDERS = AGENTS.map((agent) => path.join(SRC, "core/agents", agent.id) + path.sep);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((item) => {
    const full = path.join(dir, item.name);
    if (item.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(item.name) ? [full] : [];
  });
}

const ids = [...new Set<string>([...AGENTS.map((agent) => agent.id), ...POLICY_IDS, ...PROFILE_IDS])];
const literal = `["'\`](?:${ids.map((id) => id.replace(/[-]/g, "\\-")).join("|")})["'\`]`;
// What holds an id: formatId, policyId, profile, agentId, or the id of a policy/agent/session.
const holder = String.raw`(?:\b(?:formatId|policyId|profile|agentId)\b|\b(?:policy|agent)\.id\b)`;
// Any value compared with an id literal, whatever its name (`other === "senpi"`).
const COMPARISON = new RegExp(`[\\w.?\\])]\\s*[!=]==?\\s*${literal}|${literal}\\s*[!=]==?\\s*[\\w.?(]`);
const SWITCH_ON_ID = new RegExp(`switch\\s*\\(\\s*[\\w.?]*${holder}\\s*\\)`);

/** The offending lines of one file's text, as "line: text". */
function idComparisons(text: string): string[] {
  return text
    .split("\n")
    .map((line, index) => ({ line, index }))
    .filter(({ line }) => COMPARISON.test(line) || SWITCH_ON_ID.test(line))
    .map(({ line, index }) => `${index + 1}: ${line.trim()}`);
}

describe("agent and policy ids outside the agents' folders", () => {
  it("the check finds a comparison when there is one", () => {
    expect(idComparisons(`if (session.formatId === "claude-code") return;`)).toHaveLength(1);
    expect(idComparisons(`const x = "senpi" !== options.profile;`)).toHaveLength(1);
    expect(idComparisons(`if (policy.id === 'opencode') {`)).toHaveLength(1);
    expect(idComparisons(`switch (session.formatId) {`)).toHaveLength(1);
    expect(idComparisons(`const b = other === "senpi" ? x : y;`)).toHaveLength(1);
    expect(idComparisons(`if ("deepseek-harness" !== chosen.id) {`)).toHaveLength(1);
    expect(idComparisons(`const agent = agentOf(session);`)).toHaveLength(0);
    expect(idComparisons(`const label = "senpi";`)).toHaveLength(0);
  });

  it("no file outside src/core/agents/<id>/ compares one with a literal", () => {
    const files = sourceFiles(SRC).filter((file) => !AGENT_FOLDERS.some((folder) => file.startsWith(folder)));
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((file) => idComparisons(readFileSync(file, "utf8")).map((hit) => `${path.relative(SRC, file)}:${hit}`));
    expect(found).toEqual([]);
  });
});

/** A pattern of the agent's profile ids given as a value: `profile: "pi"`, `profile = "senpi"`, `?? "pi"`. */
function profileValuePattern(profileIds: readonly string[]): RegExp {
  const literal = `["'\`](?:${profileIds.map((id) => id.replace(/[-]/g, "\\-")).join("|")})["'\`]`;
  return new RegExp(`\\bprofile\\??\\s*[:=]\\s*${literal}|\\?\\?\\s*${literal}`);
}

/** The offending lines of one file's text for these profile ids, as "line: text". */
function profileValues(text: string, pattern: RegExp): string[] {
  return text
    .split("\n")
    .map((line, index) => ({ line, index }))
    .filter(({ line }) => pattern.test(line))
    .map(({ line, index }) => `${index + 1}: ${line.trim()}`);
}

describe("profile ids outside their agent's folder", () => {
  it("the check finds a profile given as a value when there is one", () => {
    const pattern = profileValuePattern(["pi", "senpi"]);
    expect(profileValues(`const options = { profile: "pi", leafId: null };`, pattern)).toHaveLength(1);
    expect(profileValues(`const pipeline = { profile: "pi" as const };`, pattern)).toHaveLength(1);
    expect(profileValues(`profile: (options.profile as ProfileId | undefined) ?? "senpi",`, pattern)).toHaveLength(1);
    expect(profileValues(`options.profile = 'senpi';`, pattern)).toHaveLength(1);
    expect(profileValues(`profile: (options.profile as ProfileId | undefined) ?? defaultProfileId(),`, pattern)).toHaveLength(0);
    expect(profileValues(`usageSource: "pi",`, pattern)).toHaveLength(0);
  });

  it("exactly one profile is the default, and it is one an agent offers", () => {
    expect(PROFILE_IDS).toContain(defaultProfileId());
  });

  it("no file outside an agent's folder names one of its profiles as a value", () => {
    const files = sourceFiles(SRC);
    const found = allAgents().flatMap((agent) => {
      const profileIds = (agent.profiles ?? []).map((profile) => profile.id);
      if (profileIds.length === 0) return [];
      const pattern = profileValuePattern(profileIds);
      const folder = path.join(SRC, "core/agents", agent.id) + path.sep;
      return files
        .filter((file) => !file.startsWith(folder))
        .flatMap((file) => profileValues(readFileSync(file, "utf8"), pattern).map((hit) => `${path.relative(SRC, file)}:${hit}`));
    });
    expect(found).toEqual([]);
  });
});
