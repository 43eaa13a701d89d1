// The pi/senpi reader fed lines as bytes (`pushLineBytes`, readers keeping stored texts) reads
// every pi and senpi file we hold as the string path does: the same entries once the stored texts
// are decoded, the same warnings on the same lines, and stored texts only at the places the pi
// folder lists (./storedTextPlaces.ts). Also: lines cut across 4 MB chunks, a BOM, CRLF, a cut last
// line, a placeholder-looking text, the depth cap, bytes that are not UTF-8, a followed file, and
// a pretty-printed file (read as text, nothing stored).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { Session } from "../../../src/core/model";
import { readSessionChunks, readSessionText } from "../../../src/core/session/read";
import { SessionFollower } from "../../../src/core/session/follow";
import { setReadersKeepStoredTexts } from "../../../src/core/text/storedTextsSwitch";
import { isStoredText, type StoredText } from "../../../src/core/text/storedText";
import { withTextsDecoded } from "../../../src/core/text/text";
import { DEEP_VALUE_MARKER } from "../../../src/core/util/json-depth";
import { REPO_ROOT } from "../../support/fixtures";
import { SHARED_DIR } from "../../support/shared-dir";

const decoder = new TextDecoder("utf-8");
const decode = (bytes: Uint8Array) => decoder.decode(bytes);

beforeAll(() => setReadersKeepStoredTexts(true));

function jsonlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...jsonlFiles(full));
    else if (name.endsWith(".jsonl")) out.push(full);
  }
  return out.sort();
}

/** Every pi and senpi file we hold: committed fixtures, the shared recordings, real users' files, hostile files. */
const FILES = [
  ...jsonlFiles(path.join(REPO_ROOT, "test/fixtures/pi")),
  ...jsonlFiles(path.join(REPO_ROOT, "test/fixtures/senpi")),
  ...jsonlFiles(path.join(SHARED_DIR, "pi")),
  ...jsonlFiles(path.join(SHARED_DIR, "senpi")),
  ...jsonlFiles(path.join(SHARED_DIR, "realworld/pi")),
  ...jsonlFiles(path.join(SHARED_DIR, "hostile")).filter((file) => /^(pi|senpi)-/.test(path.basename(file))),
];

/** The file read as text (the string path). */
function readAsText(bytes: Uint8Array, name: string): Session {
  return readSessionText(decoder.decode(bytes), name);
}

/** The file read as bytes, in chunks of `chunkBytes`. */
function readAsBytes(bytes: Uint8Array, name: string, chunkBytes = 4 * 1024 * 1024): Session {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += chunkBytes) chunks.push(bytes.subarray(at, at + chunkBytes));
  return readSessionChunks(chunks.length > 0 ? chunks : [bytes], name, decode);
}

type Json = Record<string, unknown>;

/** Paths (`message.content[2].text`) of every stored text of `value`. */
function storedPaths(value: unknown, at = ""): string[] {
  if (isStoredText(value)) return [at];
  if (typeof value !== "object" || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((item, index) => storedPaths(item, `${at}[${index}]`));
  return Object.entries(value).flatMap(([key, item]) => storedPaths(item, at === "" ? key : `${at}.${key}`));
}

/** Whether `place` of `raw` is one where the plan lets a pi entry keep a stored text (written out here on its own). */
function allowedPlace(raw: Json, place: string): boolean {
  const message = raw.message as Json | undefined;
  const role = message?.role;
  const blockType = (holder: unknown, index: string) => ((holder as Json[])[Number(index)] as Json | undefined)?.type;
  if (raw.type === "message" && message) {
    if (place === "message.content") return role === "user" || role === "custom";
    const block = /^message\.content\[(\d+)\]\.(text|thinking|data)$/.exec(place);
    if (block) {
      const kind = blockType(message.content, block[1]!);
      const field = { text: "text", thinking: "thinking", image: "data" }[kind as string];
      return ["user", "assistant", "toolResult", "custom"].includes(role as string) && field === block[2];
    }
    if (place === "message.output") return role === "bashExecution";
    if (place === "message.summary") return role === "branchSummary" || role === "compactionSummary";
    return false;
  }
  if (raw.type === "compaction" || raw.type === "branch_summary") return place === "summary";
  if (raw.type === "custom_message") {
    if (place === "content") return true;
    const block = /^content\[(\d+)\]\.(text|data)$/.exec(place);
    if (!block) return false;
    const kind = blockType(raw.content, block[1]!);
    return (kind === "text" && block[2] === "text") || (kind === "image" && block[2] === "data");
  }
  return false;
}

function storedTexts(value: unknown): StoredText[] {
  if (isStoredText(value)) return [value];
  if (typeof value !== "object" || value === null) return [];
  return Object.values(value).flatMap(storedTexts);
}

function expectSameSession(bytesSession: Session, textSession: Session): number {
  expect(bytesSession.warnings).toEqual(textSession.warnings);
  expect(bytesSession.header).toEqual(textSession.header);
  expect(bytesSession.lineCount).toBe(textSession.lineCount);
  expect(bytesSession.formatVersion).toBe(textSession.formatVersion);
  expect(bytesSession.entries.length).toBe(textSession.entries.length);
  let stored = 0;
  bytesSession.entries.forEach((entry, index) => {
    const expected = textSession.entries[index]!;
    expect({ ...entry, raw: withTextsDecoded(entry.raw) }).toEqual(expected);
    for (const place of storedPaths(entry.raw)) {
      expect(allowedPlace(entry.raw, place), `line ${entry.line}: ${place}`).toBe(true);
      stored++;
    }
  });
  expect(storedPaths(bytesSession.header)).toEqual([]);
  expect(bytesSession.textStore === undefined).toBe(stored === 0);
  return stored;
}

describe("pi/senpi lines read as bytes", () => {
  it("finds the files it compares", () => {
    // The committed fixtures are always there; the shared ones when the folder is.
    expect(FILES.filter((file) => file.startsWith(REPO_ROOT)).length).toBeGreaterThanOrEqual(6);
  });

  let storedAnywhere = 0;
  for (const file of FILES) {
    it(`reads ${path.relative(path.dirname(REPO_ROOT), file)} as the string path does`, () => {
      const bytes = new Uint8Array(readFileSync(file));
      const name = path.basename(file);
      const stored = expectSameSession(readAsBytes(bytes, name), readAsText(bytes, name));
      storedAnywhere += stored;
      // Small chunks cut most lines across chunk boundaries.
      expectSameSession(readAsBytes(bytes, name, 4093), readAsText(bytes, name));
    });
  }

  it("keeps some texts as bytes in the files we hold", () => {
    expect(storedAnywhere).toBeGreaterThan(0);
  });
});

/** A small pi session: the header, then the given entry objects chained by id. */
function piLines(entries: Json[]): string[] {
  const header = { type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/tmp" };
  let parentId: string | null = null;
  const lines = [JSON.stringify(header)];
  entries.forEach((entry, index) => {
    const id = `e${index + 1}`;
    lines.push(JSON.stringify({ id, parentId, timestamp: "2026-01-01T00:00:01.000Z", ...entry }));
    parentId = id;
  });
  return lines;
}

const userMessage = (content: unknown): Json => ({ type: "message", message: { role: "user", content, timestamp: 1 } });
const assistantMessage = (content: unknown[]): Json => ({
  type: "message",
  message: { role: "assistant", content, api: "openai-responses", provider: "openai", model: "gpt-5", stopReason: "stop", timestamp: 2 },
});

const big = (seed: string, size: number) => seed.repeat(Math.ceil(size / seed.length)).slice(0, size);
const encode = (text: string) => new TextEncoder().encode(text);

describe("pi lines read as bytes: the edges", () => {
  const lines = piLines([
    userMessage(big("Ünïcode ✓ text \"quoted\" \\ back\n", 5000)),
    assistantMessage([
      { type: "thinking", thinking: big("thought ", 3000) },
      { type: "text", text: big("answer ", 2000) },
      { type: "toolCall", id: "c1", name: "write", arguments: { path: "/x", content: big("file body ", 4000) } },
    ]),
    { type: "message", message: { role: "toolResult", toolCallId: "c1", toolName: "write", content: [{ type: "text", text: big("ok ", 1500) }], isError: false, details: { diff: big("diff ", 3000) }, timestamp: 3 } },
    { type: "compaction", summary: big("summary ", 2000), firstKeptEntryId: "e2", tokensBefore: 10 },
  ]);
  const text = `${lines.join("\n")}\n`;

  it("keeps the listed texts as bytes, the others (tool arguments, details) as strings", () => {
    expect(expectSameSession(readAsBytes(encode(text), "a.jsonl"), readSessionText(text, "a.jsonl"))).toBe(5);
    const read = readAsBytes(encode(text), "a.jsonl");
    const call = (read.entries[1]!.raw.message as Json).content as Json[];
    expect(typeof (call[2]!.arguments as Json).content).toBe("string");
    expect(typeof (((read.entries[2]!.raw.message as Json).details as Json).diff)).toBe("string");
    // The bytes of the texts made strings again were given back: the store holds the kept ones only.
    const kept = read.entries.flatMap((entry) => storedTexts(entry.raw));
    const keptBytes = kept.reduce((sum, stored) => sum + stored.byteLength, 0);
    const storeBytes = read.textStore!.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    expect(storeBytes).toBeGreaterThanOrEqual(keptBytes);
    expect(storeBytes).toBeLessThanOrEqual(keptBytes + 4 * kept.length);
  });

  it("reads a BOM and CRLF line ends as the string path does", () => {
    const crlf = `\uFEFF${lines.join("\r\n")}\r\n`;
    expect(expectSameSession(readAsBytes(encode(crlf), "b.jsonl", 1000), readSessionText(crlf, "b.jsonl"))).toBe(5);
  });

  it("reads a line cut across 4 MB chunk boundaries (a 9 MB text)", () => {
    const huge = `${piLines([userMessage(big("long line ", 9 * 1024 * 1024)), userMessage("short")]).join("\n")}\n`;
    const bytes = encode(huge);
    const session = readAsBytes(bytes, "c.jsonl");
    expect(expectSameSession(session, readSessionText(huge, "c.jsonl"))).toBe(1);
    expect(isStoredText((session.entries[0]!.raw.message as Json).content)).toBe(true);
  });

  it("names a cut last line as the string path does", () => {
    const cut = text.slice(0, text.length - 700);
    const session = readAsBytes(encode(cut), "d.jsonl");
    expectSameSession(session, readSessionText(cut, "d.jsonl"));
    expect(session.warnings.at(-1)!.reason).toMatch(/^truncated last line skipped \(not valid JSON/);
  });

  it("never takes a text that looks like a placeholder for a stored one", () => {
    // A NUL written as an escape, then the placeholder's words with one letter escaped.
    const line = `{"id":"e9","parentId":"e1","type":"message","message":{"role":"user","content":[{"type":"text","text":"\\u0000\\u0073tored-text:0"},{"type":"text","text":"${big("x", 2000)}"}],"timestamp":1}}`;
    const tricky = `${[...piLines([userMessage("hi")]), line].join("\n")}\n`;
    const session = readAsBytes(encode(tricky), "e.jsonl");
    expectSameSession(session, readSessionText(tricky, "e.jsonl"));
    const blocks = (session.entries[1]!.raw.message as Json).content as Json[];
    expect(blocks[0]!.text).toBe("\u0000stored-text:0");
  });

  it("applies the depth cap as the string path does", () => {
    const deep = `${"[".repeat(200)}${"]".repeat(200)}`;
    const line = `{"id":"e9","parentId":"e1","type":"message","message":{"role":"user","content":[{"type":"text","text":"${big("y", 2000)}"}],"timestamp":1},"extra":${deep}}`;
    const capped = `${[...piLines([userMessage("hi")]), line].join("\n")}\n`;
    const session = readAsBytes(encode(capped), "f.jsonl");
    expect(expectSameSession(session, readSessionText(capped, "f.jsonl"))).toBe(1);
    expect(JSON.stringify(session.entries[1]!.raw.extra)).toContain(DEEP_VALUE_MARKER);
    expect(session.warnings.some((warning) => warning.line === 3 && /nested more than/.test(warning.reason))).toBe(true);
  });

  it("reads bytes that are not UTF-8 as the decoder does", () => {
    const head = encode(`${piLines([userMessage("hi")]).join("\n")}\n{"id":"e9","parentId":"e1","type":"message","message":{"role":"user","content":"`);
    const tail = encode(`${big("z", 2000)}"}}\n`);
    const bytes = new Uint8Array([...head, 0xff, 0xc3, ...tail]);
    const session = readAsBytes(bytes, "g.jsonl");
    expectSameSession(session, readAsText(bytes, "g.jsonl"));
    expect(((session.entries[1]!.raw.message as Json).content as string).startsWith("\uFFFD\uFFFD")).toBe(true);
  });

  it("reads a pretty-printed file as text (nothing stored)", () => {
    const pretty = lines.map((line) => JSON.stringify(JSON.parse(line), null, 2)).join("\n");
    const session = readAsBytes(encode(pretty), "h.jsonl");
    expect(expectSameSession(session, readSessionText(pretty, "h.jsonl"))).toBe(0);
    expect(session.entries.length).toBe(4);
  });

  it("a followed file's values keep filling the same store", () => {
    // Detection waits for 20 lines: the big entries come after as many short ones.
    const many = Array.from({ length: 24 }, (_, index) => userMessage(`prompt ${index}`));
    const followed = `${piLines([...many, userMessage(big("first ", 3000)), userMessage(big("second ", 3000))]).join("\n")}\n`;
    const follower = new SessionFollower("i.jsonl", decode);
    const bytes = encode(followed);
    const cut = followed.lastIndexOf("\n", followed.length - 2) + 1; // before the last line (ASCII: bytes = characters)
    follower.append(bytes.subarray(0, cut));
    const first = follower.session();
    follower.append(bytes.subarray(cut));
    const second = follower.session()!;
    expect(first?.textStore).toBeDefined();
    expect(second.textStore).toBe(first!.textStore);
    expect(expectSameSession(second, readSessionText(followed, "i.jsonl"))).toBe(2);
  });
});
