// The opencode export reader (FM-OC-4, FM-GEN-1/2): detection, malformed, truncated and foreign
// input, and the database-row path (sessionFromDatabaseRows) with bad rows.
import { describe, expect, it } from "vitest";
import { classifyDatabase, readOpencodeDatabase, sessionFromDatabaseRows } from "../../../../src/core/agents/opencode";
import { type SqlQuery } from "../../../../src/core/storage/sqlite";
import { detectFormat, readSessionText, UnsupportedFormatError } from "../../../../src/core/session/index";
import { isSqliteHeader } from "../../../../src/core/storage/sqlite";
import { readOpencodeExportText } from "../../../../src/core/agents/opencode/reader";
import { splitTextLines } from "../../../../src/core/readers/lines";
import { assistant, exportDocument, toolPart, user } from "./helpers";

const doc = exportDocument([
  user("msg_1", "hello"),
  assistant("msg_2", "msg_1", [toolPart("call_1", "bash", { command: "ls" }, "a\nb")], { finish: "tool-calls" }),
  assistant("msg_3", "msg_1", "done"),
]);

describe("detection", () => {
  it("detects a pretty-printed and a compact export, and not a pi session or other JSON", () => {
    expect(detectFormat(splitTextLines(doc).slice(0, 20), "x.json")?.id).toBe("opencode");
    expect(detectFormat([JSON.stringify(JSON.parse(doc))], "x.json")?.id).toBe("opencode");
    expect(detectFormat(['{"type":"session","version":3,"id":"a","cwd":"/"}'], "x.jsonl")?.id).toBe("pi");
    expect(detectFormat(['{"messages":[{"role":"user","content":"hi"}]}'], "x.json")).toBeNull();
    expect(detectFormat(["{", '  "info": {', '    "id": "not-a-session"'], "x.json")).toBeNull();
  });

  it("recognises the SQLite header so the caller opens the database path", () => {
    const bytes = new TextEncoder().encode("SQLite format 3\u0000rest");
    expect(isSqliteHeader(bytes)).toBe(true);
    expect(isSqliteHeader(new TextEncoder().encode("SQLite format 2\u0000rest"))).toBe(false);
    expect(isSqliteHeader(new Uint8Array(4))).toBe(false);
  });

  it("names the expected opencode inputs in the unsupported-format message", () => {
    expect(() => readSessionText("hello world\n", "notes.txt")).toThrow(UnsupportedFormatError);
    expect(() => readSessionText("hello world\n", "notes.txt")).toThrow(/opencode export.*opencode\.db/);
  });
});

describe("reading an export", () => {
  it("reads messages, parts, the header and the picker listing", () => {
    const session = readSessionText(doc, "export.json");
    expect(session.formatId).toBe("opencode");
    expect(session.formatLabel).toBe("opencode export");
    expect(session.warnings).toEqual([]);
    expect(session.entries.map((entry) => [entry.id, entry.parentId, entry.type])).toEqual([
      ["msg_1", null, "message:user"],
      ["msg_2", "msg_1", "message:assistant"],
      ["msg_3", "msg_2", "message:assistant"],
    ]);
    expect(session.entries[0]?.timestamp).toMatch(/^1970-01-01T00:00:0/);
    expect(session.header).toMatchObject({ agent: "opencode", source: "export", id: "ses_test", title: "Test", version: "1.18.33", cwd: "/w" });
    expect(session.header?.sessions).toEqual([
      { id: "ses_test", title: "Test", parentId: null, directory: "/w", timeCreated: null, timeUpdated: null, messageCount: 3 },
    ]);
  });

  it("keeps the complete messages of a truncated export and reports the loss", () => {
    const cut = doc.slice(0, doc.indexOf('"done"'));
    const session = readOpencodeExportText(cut, "export.json");
    expect(session.entries.map((entry) => entry.id)).toEqual(["msg_1", "msg_2"]);
    expect(session.warnings[0]?.reason).toMatch(/truncated or damaged.*kept 2 complete messages, lost 1/);
    expect(session.header?.id).toBe("ses_test");
  });

  it("never throws on malformed input: garbage, wrong shapes, bad messages and parts", () => {
    const garbage = readOpencodeExportText("{ this is not json", "x.json");
    expect(garbage.entries).toEqual([]);
    expect(garbage.warnings[0]?.reason).toMatch(/not valid JSON|not an opencode export/);

    const foreign = readOpencodeExportText('{"foo": 1}', "x.json");
    expect(foreign.entries).toEqual([]);
    expect(foreign.warnings[0]?.reason).toMatch(/not an opencode export/);

    const bad = readOpencodeExportText(
      JSON.stringify({
        info: { id: "ses_x" },
        messages: [
          42,
          { info: { role: "user" }, parts: [] },
          { info: { id: "msg_a", role: "user" }, parts: [{ type: "text", text: "ok" }, "junk", { text: "no type" }] },
          { info: { id: "msg_a", role: "user" }, parts: [] },
          { info: { id: "msg_b" }, parts: [] },
          { info: { id: "msg_c", role: "assistant" } },
        ],
      }),
      "x.json",
    );
    expect(bad.entries.map((entry) => entry.id)).toEqual(["msg_a", "msg_c"]);
    const reasons = bad.warnings.map((w) => w.reason).join("\n");
    expect(reasons).toMatch(/messages\[0\]: not a \{info, parts\} message object/);
    expect(reasons).toMatch(/messages\[1\]: message without an id/);
    expect(reasons).toMatch(/part 2: not a part object/);
    expect(reasons).toMatch(/part 3: not a part object/);
    expect(reasons).toMatch(/msg_a appears twice/);
    expect(reasons).toMatch(/msg_b\): message without a role/);
    expect(reasons).toMatch(/msg_c\): no parts array/);
  });

  it("keeps __proto__ keys as data without touching prototypes", () => {
    const session = readOpencodeExportText(
      '{"info":{"id":"ses_p","__proto__":{"polluted":true}},"messages":[{"info":{"id":"m","role":"user","__proto__":{"x":1}},"parts":[]}]}',
      "x.json",
    );
    expect(session.entries).toHaveLength(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(session.entries[0]?.raw)).toBe(Object.prototype);
  });

  it("flags a sanitized export", () => {
    const session = readOpencodeExportText(exportDocument([user("m1", "[redacted]")]), "x.json");
    expect(session.header?.sanitized).toBe(true);
    expect(session.warnings[0]?.reason).toMatch(/sanitized/);
  });
});

describe("database rows", () => {
  const listing = [
    { id: "ses_1", title: "One", parent_id: null, directory: "/w", time_created: 1, time_updated: 5, message_count: 2 },
    { id: "ses_2", title: "Sub", parent_id: "ses_1", directory: "/w", time_created: 2, time_updated: 9, message_count: 0 },
  ];

  it("turns rows into records, reporting bad JSON, missing ids and orphan parts", () => {
    const session = sessionFromDatabaseRows(
      {
        session: { id: "ses_1", title: "One", version: "1.18.33", directory: "/w", model: '{"id":"m","providerID":"p"}', time_created: 1, time_updated: 5, tokens_input: 3 },
        messages: [
          { id: "msg_1", session_id: "ses_1", time_created: 1, data: '{"role":"user","time":{"created":1}}' },
          { id: "msg_2", session_id: "ses_1", time_created: 2, data: "{broken" },
          { session_id: "ses_1", data: "{}" },
          { id: "msg_3", session_id: "ses_1", time_created: 3, data: "[1]" },
        ],
        parts: [
          { id: "prt_2", message_id: "msg_1", session_id: "ses_1", data: '{"type":"text","text":"b"}' },
          { id: "prt_1", message_id: "msg_1", session_id: "ses_1", data: '{"type":"text","text":"a"}' },
          { id: "prt_9", message_id: "msg_gone", session_id: "ses_1", data: '{"type":"text","text":"z"}' },
          { id: "prt_8", message_id: "msg_1", session_id: "ses_1", data: "nope" },
        ],
        listing,
      },
      { fileName: "opencode.db", walApplied: true },
    );
    expect(session.formatLabel).toBe("opencode database");
    expect(session.entries.map((entry) => entry.id)).toEqual(["msg_1"]);
    const raw = session.entries[0]?.raw as { info: Record<string, unknown>; parts: Record<string, unknown>[] };
    expect(raw.info).toMatchObject({ id: "msg_1", sessionID: "ses_1", role: "user" });
    expect(raw.parts.map((part) => [part.id, part.text, part.messageID])).toEqual([
      ["prt_1", "a", "msg_1"],
      ["prt_2", "b", "msg_1"],
    ]);
    expect(session.header?.info).toMatchObject({ id: "ses_1", model: { id: "m", providerID: "p" }, tokens: { input: 3 }, time: { created: 1, updated: 5 } });
    expect((session.header?.sessions as unknown[]).length).toBe(2);
    const reasons = session.warnings.map((w) => w.reason).join("\n");
    expect(reasons).toMatch(/message msg_2: data is not valid JSON/);
    expect(reasons).toMatch(/message row without id/);
    expect(reasons).toMatch(/message msg_3: data is not a JSON object/);
    expect(reasons).toMatch(/part prt_8: data is not valid JSON/);
    expect(reasons).toMatch(/1 part\(s\) of message msg_gone/);
    expect(reasons).not.toMatch(/without its -wal/);
  });

  it("classifies databases and refuses foreign ones with a message naming the expectation", () => {
    expect(classifyDatabase(["account", "message", "part", "session"], "opencode.db")).toBe("opencode");
    expect(classifyDatabase(["anything"], "state.db")).toBe("hermes");
    expect(classifyDatabase(["sessions", "messages"], "copy.db")).toBe("unknown");
    const tablesOnly = (names: string[]): SqlQuery => (sql) => (/sqlite_master/.test(sql) ? names.map((name) => ({ name })) : []);
    expect(() => readOpencodeDatabase(tablesOnly(["t"]), { fileName: "state.db", walApplied: true })).toThrow(/hermes-agent's state\.db, but without its sessions and messages tables/);
    expect(() => readOpencodeDatabase(tablesOnly(["foo"]), { fileName: "x.db", walApplied: true })).toThrow(/without opencode's session, message and part tables/);
    expect(() => readOpencodeDatabase(tablesOnly(["session", "message", "part"]), { fileName: "x.db", walApplied: true })).toThrow(/holds no session/);
  });

  it("defaults to the most recently updated top-level session", () => {
    const query: SqlQuery = (sql, params) => {
      if (/sqlite_master/.test(sql)) return ["session", "message", "part"].map((name) => ({ name }));
      if (/COUNT\(\*\)/.test(sql)) return [listing[1] as Record<string, unknown>, listing[0] as Record<string, unknown>];
      if (/FROM session WHERE/.test(sql)) return [{ id: params?.[0], title: "x" }];
      return [];
    };
    const session = readOpencodeDatabase(query, { fileName: "x.db", walApplied: false });
    expect(session.header?.id).toBe("ses_1");
    expect(session.warnings[0]?.reason).toMatch(/without its -wal/);
    expect(session.warnings[1]?.reason).toMatch(/holds 2 sessions/);
  });
});
