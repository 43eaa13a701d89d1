// A followed session that grows keeps its agent's caches (src/core/session/growth.ts and each
// agent's `carryCaches`): the analysis and the turn requests of the grown session, computed on the
// caches carried over from the earlier values, equal those of the same bytes read afresh. Every
// recording of an agent whose files are followed line by line is cut at several line boundaries
// and fed cut by cut, as its agent would have written it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { PipelineOptions, Session } from "../../../src/core/model";
import { SessionFollower } from "../../../src/core/session/follow";
import { defaultProfileOf } from "../../../src/core/session/agents";
import { appendsTo } from "../../../src/core/session/growth";
import { analyzeSession, buildTurnRequest, findAgent, type SessionAnalysis } from "../../../src/core/session/index";
import { describeShared, fixtureCase } from "../../support/fixtures";
import { decoded } from "../../support/decoded";

const decoder = new TextDecoder();
const decode = (bytes: Uint8Array) => decoder.decode(bytes);

/** Byte offsets just after line ends, at about `parts` even places in the file, the end included. */
function cutPoints(bytes: Uint8Array, parts: number): number[] {
  const cuts: number[] = [];
  for (let part = 1; part < parts; part++) {
    const at = bytes.indexOf(0x0a, Math.floor((bytes.length * part) / parts));
    if (at >= 0 && at + 1 < bytes.length && !cuts.includes(at + 1)) cuts.push(at + 1);
  }
  cuts.push(bytes.length);
  return cuts;
}

function freshSession(name: string, bytes: Uint8Array): Session {
  const follower = new SessionFollower(name, decode);
  follower.append(bytes);
  return follower.session()!;
}

/** Every option set the session's agent offers a user (each profile, with its reply-language notes). */
function optionSets(session: Session): PipelineOptions[] {
  const profiles = findAgent(session.formatId)?.profiles ?? [{ id: defaultProfileOf(session), replyLanguageNotes: false }];
  return profiles.map((profile) => ({ profile: profile.id, leafId: null, api: null, header: null, notes: profile.replyLanguageNotes }));
}

/** Requests of the turns in `turns` as plain values (body and message texts). */
function requestsOf(session: Session, options: PipelineOptions, turns: number[]): unknown[] {
  return turns.map((turn) => {
    const request = buildTurnRequest(session, options, turn);
    return { turn, api: request.api, body: request.body, messages: request.messages.map((item) => ({ message: item.message, provenance: item.provenance })) };
  });
}

/**
 * Feeds the file cut by cut; after each cut the grown session (its caches carried from the cut
 * before, analysed and its new turns built there) must give what a fresh read gives.
 */
function checkGrowth(file: string, parts: number, { carriesCaches = false, keepsTurns = false } = {}): { cuts: number; turns: number } {
  const bytes = new Uint8Array(readFileSync(file));
  const name = path.basename(file);
  const follower = new SessionFollower(name, decode);
  let previous: Session | null = null;
  let offset = 0;
  const turnsSeen = new Map<string, number>();
  const analyses = new Map<string, SessionAnalysis>();
  let lastTurns = 0;
  for (const cut of cutPoints(bytes, parts)) {
    follower.append(bytes.subarray(offset, cut));
    offset = cut;
    const grown = follower.session();
    if (!grown || grown.entries.length === 0) continue;
    if (previous) expect(appendsTo(previous, grown)).toBe(true);
    // Every agent the suite follows carries its caches (or says it rebuilds them, docs/live.md).
    if (carriesCaches) expect(findAgent(grown.formatId)?.pipeline.carryCaches).toBeDefined();
    const fresh = freshSession(name, bytes.subarray(0, cut));
    for (const options of optionSets(grown)) {
      const key = JSON.stringify(options);
      const analysis = analyzeSession(grown, options);
      expect(analysis).toEqual(analyzeSession(fresh, options));
      // An agent that keeps its analysis walk (pi) goes on from the earlier analysis: its turns are kept, not made again.
      const earlier = analyses.get(key);
      if (keepsTurns && earlier && earlier.turns.length > 0) expect(analysis.turns[0]).toBe(earlier.turns[0]);
      analyses.set(key, analysis);
      // The turns new since the previous cut, and the last one, as a followed session builds them.
      const from = turnsSeen.get(key) ?? 0;
      const count = analysis.turns.length;
      const turns = [...new Set([...Array.from({ length: count - from }, (_, index) => from + index + 1), count])].filter((turn) => turn >= 1);
      expect(decoded(requestsOf(grown, options, turns))).toEqual(decoded(requestsOf(fresh, options, turns)));
      turnsSeen.set(key, count);
      lastTurns = Math.max(lastTurns, count);
    }
    previous = grown;
  }
  return { cuts: parts, turns: lastTurns };
}

/** What each agent keeps when its session grows: its caches carried over, and its analysis walk (the same turn summaries). */
const PI = { carriesCaches: true, keepsTurns: true };
const CODEX = { carriesCaches: true };
const CLAUDE = { carriesCaches: true, keepsTurns: true };
const GEMINI = { carriesCaches: true, keepsTurns: true };
const REBUILDS = {};

/**
 * The agents whose files are followed line by line (their reader gives the session before the
 * end), by the folder of their recordings; deepseek-harness's is compressed (its decoded copy is
 * read below). opencode's and hermes's stores are read again whole when they change.
 */
const LINE_AGENT_FOLDERS: Record<string, { agent: string; keeps: { carriesCaches?: boolean; keepsTurns?: boolean } }> = {
  pi: { agent: "pi", keeps: PI },
  senpi: { agent: "pi", keeps: PI },
  claude: { agent: "claude-code", keeps: CLAUDE },
  codex: { agent: "codex", keeps: CODEX },
  "gemini-cli": { agent: "gemini-cli", keeps: GEMINI },
};

describe("a committed session grown line by line", () => {
  it.each([
    ["pi/print-openai-autocompact", PI],
    ["claude/print-autocompact-manualcompact", CLAUDE],
    ["codex/exec-autocompact", CODEX],
  ] as const)("%s analyses as read afresh", (caseName, keeps) => {
    const result = checkGrowth(fixtureCase(caseName).sessionPath, 7, keeps);
    expect(result.turns).toBeGreaterThan(1);
  });
});

describe("a Claude Code transcript grown one line at a time", () => {
  // Every line boundary: between the entries of one API message, before a tool result, at a compact boundary.
  it("claude/print-autocompact-manualcompact (with api-request records) analyses as read afresh after every line", () => {
    const file = fixtureCase("claude/print-autocompact-manualcompact").sessionPath;
    const lines = readFileSync(file, "utf8").split("\n").length;
    expect(checkGrowth(file, lines * 4, CLAUDE).turns).toBeGreaterThan(1);
  });
});

describeShared("recordings grown line by line", (shared) => {
  for (const [folder, { agent, keeps }] of Object.entries(LINE_AGENT_FOLDERS)) {
    for (const caseName of shared.caseNames(folder)) {
      it(`${folder}/${caseName} (${agent}) analyses as read afresh at every cut`, () => {
        const file = shared.case(`${folder}/${caseName}`).sessionPath;
        const result = checkGrowth(file, 6, keeps);
        expect(result.turns).toBeGreaterThan(1);
      });
    }
  }
  it("gemini-cli/p-resume-autocompress (a resume, a compression: $set records) analyses as read afresh after every line", () => {
    const file = shared.case("gemini-cli/p-resume-autocompress").sessionPath;
    const lines = readFileSync(file, "utf8").split("\n").length;
    expect(checkGrowth(file, lines * 4, GEMINI).turns).toBeGreaterThan(1);
  });
  it("deepseek-harness's decoded session analyses as read afresh at every cut", () => {
    const dir = shared.path("deepseek-harness/headless-deepseek-manualcompact/session-decoded");
    const file = findJsonl(dir);
    expect(checkGrowth(file, 6).turns).toBeGreaterThan(1);
  });
  it.each([
    ["pi/pi-mono-large-session-v1.jsonl", PI],
    ["claude-code/entire-040b-small-summary-task.jsonl", CLAUDE],
    ["codex/codemie-rollout-0.128-desktop.jsonl", CODEX],
    ["codex/acidicsoil-legacy-2025-09.jsonl", CODEX],
  ] as const)("the real session realworld/%s analyses as read afresh at every cut", (file, keeps) => {
    expect(checkGrowth(shared.path(`realworld/${file}`), 5, keeps).turns).toBeGreaterThan(1);
  });
  it("the real Claude Code session realworld/claude-code/entire-040b-small-summary-task.jsonl (no api-request records) analyses as read afresh after every line", () => {
    const file = shared.path("realworld/claude-code/entire-040b-small-summary-task.jsonl");
    const lines = readFileSync(file, "utf8").split("\n").length;
    expect(checkGrowth(file, lines * 4, CLAUDE).turns).toBeGreaterThan(1);
  });
});

function findJsonl(dir: string): string {
  for (const item of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (item.isFile() && item.name.endsWith(".jsonl")) return path.join(item.parentPath, item.name);
  }
  throw new Error(`no .jsonl file under ${dir}`);
}
