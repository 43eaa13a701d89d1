// The session part of a payload: lines of a Session, the branch cut to one entry (PI-P2 path,
// cycle guard), and buildSharePayload with redaction on by default.
import { describe, expect, it } from "vitest";
import type { Session, SessionEntry } from "../../../src/core/model";
import { branchSession, buildSharePayload, decodeShareLink, encodeShareFragment, minimalSessionLines, sessionLines, shareSessionText } from "../../../src/core/share";
import { fake } from "../redact/helpers";

function entry(id: string, parentId: string | null, text = id): SessionEntry {
  const raw = { type: "message", id, parentId, message: { role: "user", content: text } };
  return { id, parentId, type: "message", timestamp: null, line: 0, raw };
}

const header = { type: "session", version: 3, id: "s", cwd: "/w" };
function session(entries: SessionEntry[]): Session {
  return { formatId: "pi", formatLabel: "pi", fileName: "s.jsonl", formatVersion: 3, header, entries, warnings: [], lineCount: entries.length + 1 };
}

// Tree: a → b → c → d, and b → x → y (another branch).
const tree = session([entry("a", null), entry("b", "a"), entry("x", "b"), entry("c", "b"), entry("y", "x"), entry("d", "c")]);

describe("session lines", () => {
  it("writes the header then every entry's raw object", () => {
    expect(sessionLines(tree)).toEqual([JSON.stringify(header), ...tree.entries.map((e) => JSON.stringify(e.raw))]);
  });

  it("cuts to the path from the root to the chosen entry, in file order", () => {
    expect(branchSession(tree, "c").entries.map((e) => e.id)).toEqual(["a", "b", "c"]);
    expect(branchSession(tree, "y").entries.map((e) => e.id)).toEqual(["a", "b", "x", "y"]);
    expect(minimalSessionLines(tree, "c")).toEqual([JSON.stringify(header), ...["a", "b", "c"].map((id) => JSON.stringify(tree.entries.find((e) => e.id === id)!.raw))]);
  });

  it("stops at a cycle and rejects unknown ids", () => {
    const cyclic = session([entry("p", "q"), entry("q", "p")]);
    expect(branchSession(cyclic, "q").entries.map((e) => e.id)).toEqual(["p", "q"]);
    expect(() => branchSession(tree, "nope")).toThrow(RangeError);
  });

  it("gives reader text with one line per entry", () => {
    const payload = buildSharePayload({ session: tree, scope: "full", view: { turn: null, tab: "request", profile: "pi", provider: null, notes: false, leafId: null } }).payload;
    expect(shareSessionText(payload.session).split("\n")).toHaveLength(tree.entries.length + 2);
  });
});

describe("buildSharePayload", () => {
  const secret = `gh${"p_"}${fake(36, undefined, 11)}`;
  const withSecret = session([entry("a", null), entry("b", "a", `token ${secret}`), entry("c", "b"), entry("z", "a", `other ${secret}`)]);
  const view = { turn: 1, tab: "request", profile: "pi" as const, provider: null, notes: false, leafId: "c" };

  it("redacts by default, on the shared branch only, with original entry indexes", () => {
    const { payload, findings } = buildSharePayload({ session: withSecret, scope: "branch", leafEntryId: "c", view });
    expect(payload.session.lines.join("\n")).not.toContain(secret);
    expect(payload.session.scope).toBe("branch");
    expect(payload.session.lines).toHaveLength(4);
    expect(findings.map((f) => f.path)).toEqual(["entries[1].raw.message.content"]);
    const full = buildSharePayload({ session: withSecret, scope: "full", view });
    expect(full.findings.map((f) => f.path)).toEqual(["entries[1].raw.message.content", "entries[3].raw.message.content"]);
    expect(full.findings[0]!.id).toBe(findings[0]!.id);
  });

  it("keeps an unmasked value and can switch redaction off", () => {
    const first = buildSharePayload({ session: withSecret, scope: "branch", leafEntryId: "c", view });
    const kept = buildSharePayload({ session: withSecret, scope: "branch", leafEntryId: "c", view, unmasked: [first.findings[0]!.id] });
    expect(kept.payload.session.lines.join("\n")).toContain(secret);
    const off = buildSharePayload({ session: withSecret, scope: "full", view, redact: false });
    expect(off.findings).toEqual([]);
    expect(off.payload.session.lines.join("\n")).toContain(secret);
  });

  it("redacts the attached request header", () => {
    const header = { api: "openai-completions" as const, systemPrompt: `use ${secret}`, extraSettings: {}, source: "h" };
    const { payload, findings } = buildSharePayload({ session: withSecret, scope: "branch", leafEntryId: "c", view: { ...view, header } });
    expect(payload.view.header?.systemPrompt).not.toContain(secret);
    expect(findings.map((f) => f.path)).toContain("view.header.systemPrompt");
  });

  it("produces a payload that survives the link round trip", () => {
    const { payload } = buildSharePayload({ session: withSecret, scope: "branch", leafEntryId: "c", view });
    expect(decodeShareLink(encodeShareFragment(payload))).toEqual({ ok: true, version: 2, payload });
  });

  it("needs a leaf for the branch scope", () => {
    expect(() => buildSharePayload({ session: withSecret, scope: "branch", view })).toThrow(/leafEntryId/);
  });
});
