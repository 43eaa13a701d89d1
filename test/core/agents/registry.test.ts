// The agent registry: one descriptor per agent id, each with its own folder; the readers, the
// policies and the profiles the rest of the app lists all come from it; a forced format may name
// a reader or an agent (share links name the session's agent).
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { agentOf, allAgents, findAgent, policyOnlyAgents, PROFILE_IDS } from "../../../src/core/session/agents";
import { emptySession, FORMAT_READERS, getFormatReader, readSessionText } from "../../../src/core/session/index";
import { POLICIES, POLICY_IDS } from "../../../src/core/session/simulate/policies";

const CHAT_LIST = JSON.stringify([
  { role: "user", content: "hi" },
  { role: "assistant", content: "hello" },
]);

describe("agent registry", () => {
  it("lists each agent once, each with its folder under src/core/agents", () => {
    const ids = allAgents().map((agent) => agent.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(["hf-sts", "deepseek-harness", "pi", "kilo", "opencode", "qwen-code", "claude-code", "codex", "gemini-cli", "kimi-code", "copilot-cli", "crush", "hermes"]);
    for (const id of [...ids, ...policyOnlyAgents().map((agent) => agent.id)]) expect(existsSync(path.resolve(__dirname, "../../../src/core/agents", id, "agent.ts"))).toBe(true);
  });

  it("gives the readers in detection order, session traces and deepseek-harness before pi, hermes-agent's chat-message list and storage side files last", () => {
    expect(FORMAT_READERS.map((reader) => reader.id)).toEqual(["hf-sts", "deepseek-harness", "pi", "kilo", "opencode", "qwen-code", "claude-code", "codex", "gemini-cli", "kimi-code", "copilot-cli", "crush", "chat-messages", "hermes-storage-files"]);
  });

  it("gives every agent's policies to the simulator, plus the ones without an agent", () => {
    for (const agent of [...allAgents(), ...policyOnlyAgents()]) for (const policy of agent.policies) expect(POLICIES).toContain(policy);
    expect(POLICY_IDS).toContain("deepseek-harness");
    // deepseek-harness reads its sessions now: no agent is left with a policy only.
    expect(policyOnlyAgents()).toEqual([]);
    expect(new Set(POLICY_IDS).size).toBe(POLICY_IDS.length);
  });

  it("gives the profiles of the agents that offer a choice", () => {
    expect(PROFILE_IDS).toEqual(["pi", "senpi"]);
    expect(findAgent("pi")?.profiles?.find((p) => p.id === "senpi")?.replyLanguageNotes).toBe(true);
  });

  it("finds a session's agent, and refuses the empty input's 'none'", () => {
    const session = readSessionText(CHAT_LIST, "list.json");
    expect(session.formatId).toBe("hermes");
    expect(agentOf(session).label).toBe("hermes-agent");
    expect(findAgent("none")).toBeNull();
    expect(() => agentOf(emptySession("e.jsonl", 0))).toThrow(/No agent reads sessions of format "none"/);
  });

  it("reads a forced format named by its reader or by its agent the same way", () => {
    expect(getFormatReader("chat-messages")?.id).toBe("chat-messages");
    expect(getFormatReader("hermes")?.id).toBe("chat-messages");
    expect(getFormatReader("no-such-agent")).toBeNull();
    const byReader = readSessionText(CHAT_LIST, "list.json", "chat-messages");
    const byAgent = readSessionText(CHAT_LIST, "list.json", "hermes");
    expect(byAgent).toEqual(byReader);
    expect(byAgent.entries).toHaveLength(2);
  });
});
