// The benchmark generator of every agent's format (bench/generate-agent-session.ts): a small
// session of each agent opens in the CLI as that agent, with every generated API call a turn,
// every generated compaction found, a Claude Code session's sub-agent files read as threads, and
// no reader warning; the same seed writes the same bytes.
import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GENERATED_AGENTS, generateAgentSession, type AgentSession } from "../../bench/generate-agent-session";
import { runCliCaptured } from "../cli/cli-helpers";

const written: AgentSession[] = [];
/** The temporary folder a generated session was written under (newTempFile's folder). */
const rootOf = (session: AgentSession) => session.file.slice(0, session.file.indexOf(path.sep, session.file.indexOf("contextscope-agent-")));

afterAll(() => {
  for (const session of written) rmSync(rootOf(session), { recursive: true, force: true });
});

describe("generate-agent-session", () => {
  for (const agent of GENERATED_AGENTS) {
    it(`writes a ${agent} session the CLI reads as ${agent}, every call and compaction found, no warning`, async () => {
      const session = generateAgentSession(agent, { minBytes: 200 * 1024, seed: 7, callsPerCompaction: 12 });
      written.push(session);
      expect(session.bytes).toBeGreaterThanOrEqual(200 * 1024);
      expect(session.turns).toBeGreaterThan(0);
      expect(session.compactions).toBeGreaterThan(0);
      const run = await runCliCaptured(["scan", session.file, "--full", "--jobs", "1", "--tokenizer", "estimate"]);
      expect(run.code).toBe(0);
      expect(run.lines).toHaveLength(1);
      const scanned = run.lines[0]!;
      expect(scanned.error).toBeNull();
      expect(scanned.agent).toBe(agent);
      expect(scanned.turns).toBe(session.turns);
      expect(scanned.compactions).toBe(session.compactions);
      expect(scanned.warnings).toBe(0);
      if (agent === "claude-code") {
        expect(session.subagents).toBeGreaterThan(0);
        expect(session.files).toHaveLength(1 + session.subagents);
        expect(scanned.threads).toBe(session.subagents);
      }
    });
  }

  it("writes the same bytes for the same seed, other bytes for another", () => {
    const hash = (session: AgentSession) => {
      written.push(session);
      return createHash("sha256").update(readFileSync(session.file)).digest("hex");
    };
    const first = hash(generateAgentSession("codex", { minBytes: 100 * 1024, seed: 3 }));
    expect(hash(generateAgentSession("codex", { minBytes: 100 * 1024, seed: 3 }))).toBe(first);
    expect(hash(generateAgentSession("codex", { minBytes: 100 * 1024, seed: 4 }))).not.toBe(first);
  });
});
