// Session search: a message shared by many turns is found once, at the first turn that holds it,
// with its index in that turn's context; tool names, arguments and file paths are searched; image
// data is not; case does not matter. Session composition: tokens by kind per turn add up.
import { describe, expect, it } from "vitest";
import type { Session } from "../../../src/core/model";
import { readSessionText } from "../../../src/core/session/index";
import { iterateSessionCompositions } from "../../../src/core/session/sessionComposition";
import { matchMessage, queryMatcher, searchSession, visitMessageStrings, type SearchHit } from "../../../src/core/search/index";

function session(turns: number): Session {
  const lines = [
    JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2026-11-29T10:00:00.000Z", cwd: "/tmp" }),
    JSON.stringify({ type: "message", id: "u0", parentId: null, timestamp: "2026-11-29T10:00:01.000Z", message: { role: "user", content: [{ type: "text", text: "Read The Files" }], timestamp: 1 } }),
  ];
  let parent = "u0";
  for (let turn = 1; turn <= turns; turn++) {
    lines.push(
      JSON.stringify({
        type: "message",
        id: `a${turn}`,
        parentId: parent,
        timestamp: "2026-11-29T10:00:02.000Z",
        message: { role: "assistant", content: [{ type: "toolCall", id: `c${turn}`, name: "read", arguments: { path: `src/file${turn}.ts` } }], api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 }, stopReason: "toolUse", timestamp: 2 },
      }),
      JSON.stringify({
        type: "message",
        id: `r${turn}`,
        parentId: `a${turn}`,
        timestamp: "2026-11-29T10:00:03.000Z",
        message: { role: "toolResult", toolCallId: `c${turn}`, toolName: "read", content: [{ type: "text", text: turn === 5 ? "NEEDLE here" : `contents ${turn}` }], isError: false, timestamp: 3 },
      }),
    );
    parent = `r${turn}`;
  }
  return readSessionText(lines.join("\n"), "s.jsonl");
}

function hits(s: Session, query: string): SearchHit[] {
  return [...searchSession(s, { profile: "pi" }, query)].flatMap((step) => (step.kind === "hit" ? [step.hit] : []));
}

describe("searchSession", () => {
  const s = session(8);
  it("finds a message once, at the first turn whose context holds it", () => {
    const found = hits(s, "needle");
    expect(found).toHaveLength(1);
    // The tool result answering turn 5's call is first sent in turn 6, as its 11th message.
    expect(found[0]).toMatchObject({ turn: 6, index: 10, kind: "tool-result", toolName: "read", match: "NEEDLE" });
    expect(found[0]!.snippet.slice(found[0]!.snippetOffset)).toMatch(/^NEEDLE here/);
    // The first user message is in every turn's context: one hit.
    expect(hits(s, "read the files")).toHaveLength(1);
  });

  it("searches tool names, arguments and file paths", () => {
    expect(hits(s, "src/file3.ts")).toMatchObject([{ turn: 4, kind: "assistant", toolName: "read" }]);
  });

  it("leaves image data and signatures out of the searchable text", () => {
    const message = { role: "user", content: [{ type: "image", data: "QUJDREVG", mimeType: "image/png" }, { type: "text", text: "look" }] };
    const strings: string[] = [];
    visitMessageStrings(message as never, (text) => strings.push(text) > 0);
    expect(strings).toContain("look");
    expect(strings.join(" ")).not.toContain("QUJDREVG");
    expect(matchMessage(message as never, queryMatcher("qujd"))).toBeNull();
    expect(matchMessage(message as never, queryMatcher("LOO"))).toMatchObject({ text: "look", at: 0, length: 3, count: 1 });
    // Regular-expression characters in a query are literal.
    expect(matchMessage({ role: "user", content: "a.b (c)" } as never, queryMatcher("(c)"))).toMatchObject({ at: 4 });
  });

  it("yields progress steps (so a caller can slice the work), ending at the turn count", () => {
    const turns = [...searchSession(s, { profile: "pi" }, "zzz-not-there")].flatMap((step) => (step.kind === "turn" ? [step.turn] : []));
    expect(turns.length).toBeGreaterThanOrEqual(8);
    expect(turns.at(-1)).toBe(8);
    expect([...turns].sort((a, b) => a - b)).toEqual(turns);
  });
});

describe("iterateSessionCompositions", () => {
  it("gives every turn its tokens by kind, adding up to the total", () => {
    const rows = [...iterateSessionCompositions(session(4), { profile: "pi" })];
    expect(rows.map((r) => r.turn)).toEqual([1, 2, 3, 4]);
    for (const row of rows) expect(Object.values(row.byKind).reduce((a, b) => a + (b ?? 0), 0)).toBe(row.total);
    expect(rows[3]!.byKind["tool-result"]).toBeGreaterThan(rows[1]!.byKind["tool-result"]!);
    expect(rows[0]!.byKind["tool-result"]).toBeUndefined();
  });
});
