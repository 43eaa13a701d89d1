// The indexed search finds exactly what the turn-by-turn search found before it (same turn, index,
// kind, snippet, count), on fixtures of every agent and on real sessions: the reference below walks
// every turn's request and tests each distinct message at its first turn, as the search used to.
// The trigram sketch never rules out a message that matches, whatever the case of the query.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { PipelineOptions, Session } from "../../../src/core/model";
import { iterateTurnRequests } from "../../../src/core/session/turnRequests";
import { compositionKind } from "../../../src/core/prefix/composition";
import { readSessionText } from "../../../src/core/session/index";
import {
  buildSketch,
  matchMessage,
  messageToolName,
  queryMatcher,
  queryTrigrams,
  SearchIndex,
  searchIndex,
  sketchMayContain,
  visitMessageStrings,
  type SearchHit,
} from "../../../src/core/search/index";
import { committedFixtures, describeShared, findSessionFile, fixturePath, type FixtureRoot } from "../../support/fixtures";

function referenceHits(session: Session, options: PipelineOptions, query: string): SearchHit[] {
  const matcher = queryMatcher(query);
  const seen = new WeakSet<object>();
  const hits: SearchHit[] = [];
  for (const { turn, request } of iterateTurnRequests(session, options)) {
    request.messages.forEach((item, index) => {
      if (seen.has(item.message)) return;
      seen.add(item.message);
      const found = matchMessage(item.message, matcher);
      if (!found) return;
      const start = Math.max(0, found.at - 48);
      const end = Math.min(found.text.length, found.at + found.length + 48);
      const before = (start > 0 ? "…" : "") + found.text.slice(start, found.at).replace(/\s+/g, " ");
      const after = found.text.slice(found.at, end).replace(/\s+/g, " ") + (end < found.text.length ? "…" : "");
      hits.push({
        turn,
        index,
        role: item.message.role,
        kind: compositionKind(item),
        toolName: messageToolName(item.message),
        snippet: before + after,
        snippetOffset: before.length,
        match: found.text.slice(found.at, found.at + found.length),
        count: found.count,
      });
    });
  }
  return hits;
}

function indexedHits(index: SearchIndex, query: string): SearchHit[] {
  return [...searchIndex(index, query)].flatMap((step) => (step.kind === "hit" ? [step.hit] : []));
}

/** Queries drawn from the session's own strings: pieces of several lengths, in other cases, plus misses. */
function queriesOf(index: SearchIndex): string[] {
  const strings: string[] = [];
  for (const entry of index.entries) visitMessageStrings(entry.message, (text) => strings.push(text) > 0);
  const queries = new Set(["the", "a", "ERROR", "zzzz-not-there", "노트", "\"path\""]);
  const step = Math.max(1, Math.floor(strings.length / 12));
  for (let i = 0; i < strings.length; i += step) {
    const text = strings[i]!;
    if (text.length < 4) continue;
    const at = Math.floor(text.length / 2);
    const piece = text.slice(at, at + 14).trim();
    if (piece.length >= 3) {
      queries.add(piece);
      queries.add(piece.toUpperCase());
    }
    queries.add(text.slice(0, 5));
  }
  return [...queries];
}

function sameHitsAsTheReference(session: Session, options: PipelineOptions): void {
  const index = new SearchIndex(session, options).buildAll();
  const queries = queriesOf(index);
  expect(queries.length).toBeGreaterThan(6);
  let matched = 0;
  for (const query of queries) {
    const expected = referenceHits(session, options, query);
    expect(indexedHits(index, query), query).toEqual(expected);
    if (expected.length > 0) matched++;
  }
  // The comparison is not vacuous: most queries find something.
  expect(matched).toBeGreaterThan(queries.length / 2);
}

// Cases recorded with a session/ folder (opencode's WAL case is a database, read by run-autocompact's
// export instead; codex's spawn-agents keeps the rollouts in codex's own sessions/ layout).
const CASES = ["pi", "senpi", "claude", "codex", "opencode"].flatMap((agent) =>
  committedFixtures.caseNames(agent).flatMap((name) => (existsSync(committedFixtures.path(`${agent}/${name}`) + "/session") ? [`${agent}/${name}`] : [])),
);

describe("indexed search = turn-by-turn search", () => {
  it.each(CASES)("%s", (id) => {
    const fixture = committedFixtures.case(id);
    const profile = id.startsWith("senpi/") ? "senpi" : "pi";
    sameHitsAsTheReference(fixture.session, { profile });
  });

  it("codex/spawn-agents (a rollout with sub-agent threads)", () => {
    const file = findSessionFile(committedFixtures.path("codex/spawn-agents/sessions"));
    sameHitsAsTheReference(readSessionText(readFileSync(file, "utf8"), path.basename(file)), { profile: "pi" });
  });

  it("hermes (export)", () => {
    const file = fixturePath("hermes/storage/export.jsonl");
    sameHitsAsTheReference(readSessionText(readFileSync(file, "utf8"), path.basename(file)), { profile: "pi" });
  });
});

describeShared("indexed search = turn-by-turn search (real sessions)", (shared: FixtureRoot) => {
  it.each(["claude-code/entire-040b-small-summary-task.jsonl", "codex/codemie-rollout-0.128-desktop.jsonl"])(
    "%s",
    (relative) => {
      const file = shared.path(`realworld/${relative}`);
      sameHitsAsTheReference(readSessionText(readFileSync(file, "utf8"), path.basename(file)), { profile: "pi" });
    },
  );
});

describe("trigram sketch", () => {
  it("keeps every message a case-insensitive query matches, ſ and the Kelvin sign included", () => {
    const sketch = buildSketch(["Reading SRC/Main.ts", "the ſtore has 5 \u212Aeys", "노트 저장 ✓ done"]);
    for (const query of ["src/main", "MAIN.TS", "store", "STORE", "keys", "KEYS", "노트 저장", "✓ done", "저장 ✓ do"]) {
      expect(sketchMayContain(sketch, queryTrigrams(query)), query).toBe(true);
      expect(matchMessage({ role: "user", content: "Reading SRC/Main.ts the ſtore has 5 \u212Aeys 노트 저장 ✓ done" } as never, queryMatcher(query)), query).not.toBeNull();
    }
    // What it rules out: a query whose trigrams are absent.
    expect(sketchMayContain(sketch, queryTrigrams("file-12000-0.md"))).toBe(false);
    // A query without an all-ASCII trigram cannot be filtered (every message is a candidate).
    expect(queryTrigrams("노트")).toEqual([]);
    expect(queryTrigrams("ab")).toEqual([]);
  });

  it("does not join strings: a trigram across two strings of a message is not indexed", () => {
    const sketch = buildSketch(["abc", "def"]);
    expect(sketchMayContain(sketch, queryTrigrams("abc"))).toBe(true);
    expect(sketchMayContain(sketch, queryTrigrams("cde"))).toBe(false);
  });
});

describe("SearchIndex", () => {
  it("is built turn by turn, and a search started early builds the rest", () => {
    const fixture = committedFixtures.case("pi/print-openai-autocompact");
    const index = new SearchIndex(fixture.session, { profile: "pi" });
    expect(index.step()).toBe(true);
    expect(index.complete).toBe(false);
    const early = indexedHits(index, "e");
    expect(index.complete).toBe(true);
    expect(early).toEqual(referenceHits(fixture.session, { profile: "pi" }, "e"));
    expect(index.turns).toBeGreaterThan(1);
  });
});
